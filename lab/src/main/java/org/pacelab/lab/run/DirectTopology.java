package org.pacelab.lab.run;

import java.io.IOException;
import java.util.List;

import org.pacelab.lab.peer.Role;

/**
 * Direct mode: server and client on 127.0.0.1 talking to each other with nothing in between — no emulator, so no
 * shaping, no tap and no event log. What remains to measure is the stacks' own goodput (and CPU), which a relay would
 * otherwise cap at its own throughput.
 */
final class DirectTopology implements Topology {
    /** Why a direct run has no tap, drops or per-packet metrics (the summaries' reason). */
    static final String NO_TAP = "mode direct has no emulator in the path, so there is no tap and no event log (goodput only)";

    private final int serverPort;

    private DirectTopology(int serverPort) {
        this.serverPort = serverPort;
    }

    static DirectTopology start() throws IOException {
        return new DirectTopology(PortProbe.freePort());
    }

    @Override
    public String serverAddress() {
        return RelayTopology.LOOPBACK;
    }

    @Override
    public int serverPort() {
        return serverPort;
    }

    @Override
    public String clientHost() {
        return RelayTopology.LOOPBACK;
    }

    @Override
    public int clientPort() {
        return serverPort;
    }

    @Override
    public ChildProcess emulator() {
        return null;
    }

    @Override
    public List<String> wrap(Role role, List<String> command) {
        return command;
    }

    @Override
    public void close() {
        // nothing was started
    }
}
