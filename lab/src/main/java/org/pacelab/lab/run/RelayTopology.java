package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.scenario.Collect;

/**
 * Relay mode: server and client on 127.0.0.1, the client talking to {@code pacelab emulate}, which relays through
 * the link model to the server and taps the server's side.
 */
final class RelayTopology implements Topology {
    static final String LOOPBACK = "127.0.0.1";
    private static final long EMULATOR_STOP_MILLIS = 30_000;

    private final ProcessSupervisor supervisor;
    private final ChildProcess emulator;
    private final int serverPort;
    private final int relayPort;

    private RelayTopology(ProcessSupervisor supervisor, ChildProcess emulator, int serverPort, int relayPort) {
        this.supervisor = supervisor;
        this.emulator = emulator;
        this.serverPort = serverPort;
        this.relayPort = relayPort;
    }

    static RelayTopology start(ProcessSupervisor supervisor, PacelabLauncher pacelab, Configuration c, long seed, Path dir,
                               Collect collect, long readyTimeoutNs) throws IOException, RunFailedException, InterruptedException {
        int serverPort = PortProbe.freePort();
        int relayPort = PortProbe.freePort();
        while (relayPort == serverPort) {
            relayPort = PortProbe.freePort();
        }
        List<String> args = new ArrayList<>(List.of("emulate", "--listen", LOOPBACK + ":" + relayPort, "--to", LOOPBACK + ":" + serverPort));
        args.addAll(EmulatorArguments.of(c, seed, dir, collect));
        Path out = RunFiles.log(dir, "emulator", "out");
        ChildProcess emu = supervisor.start("emulator", pacelab.command(args), Map.of(), dir, out, RunFiles.log(dir, "emulator", "err"));
        Readiness.UdpBound ready = new Readiness.UdpBound(relayPort);
        Waits.until(emu, () -> relaying(out) && PortProbe.ready(emu.pid(), ready), readyTimeoutNs,
                "the emulator to listen on UDP port " + relayPort);
        return new RelayTopology(supervisor, emu, serverPort, relayPort);
    }

    /**
     * Whether the emulator has printed its "relaying" lines, which come after its warm-up and after its real listening
     * sockets are bound: a port bound by the warm-up's copy (ephemeral, so possibly the one the runner picked) is not
     * the relay being ready.
     */
    static boolean relaying(Path out) {
        return RunFiles.hasLine(out, "relaying ");
    }

    @Override
    public String serverAddress() {
        return LOOPBACK;
    }

    @Override
    public int serverPort() {
        return serverPort;
    }

    @Override
    public String clientHost() {
        return LOOPBACK;
    }

    @Override
    public int clientPort() {
        return relayPort;
    }

    @Override
    public ChildProcess emulator() {
        return emulator;
    }

    @Override
    public List<String> wrap(Role role, List<String> command) {
        return command;
    }

    @Override
    public void close() throws RunFailedException {
        int exit = supervisor.stop(emulator, EMULATOR_STOP_MILLIS);
        if (exit != 0 && exit != 143) {
            throw new RunFailedException("the emulator exited with status " + exit + ": " + emulator.tail());
        }
    }
}
