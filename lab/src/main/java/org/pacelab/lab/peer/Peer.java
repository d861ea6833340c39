package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.peers.build.PeerBuild;

/**
 * A server and/or client implementation the runner drives: what it speaks, where it runs, the options it takes,
 * whether it is installed, and how to start it so that its logs, key log and qlog land in the run's directory.
 */
public interface Peer {
    /** The name scenarios use, e.g. {@code ngtcp2}. */
    String name();

    /** One line for {@code pacelab peers}. */
    String summary();

    /** What it speaks, in order of preference (a server's first that the client speaks too is used). */
    List<Protocol> protocols();

    /** The roles it plays: a QUIC stack plays both unless it says otherwise. */
    default Set<Role> roles() {
        return EnumSet.allOf(Role.class);
    }

    /**
     * The modes it can run in (the simulator runs only pacelab's own stack): a third-party program runs behind the
     * relay or in the namespaces unless it says otherwise.
     */
    default Set<Mode> modes() {
        return EnumSet.of(Mode.RELAY, Mode.NETNS);
    }

    /** The options it takes in the given role. */
    List<PeerOption> options(Role role);

    /** One sentence when options that are valid alone do not go together, else null. */
    default String combinationProblem(Role role, Map<String, String> options) {
        return null;
    }

    /**
     * The options (valid ones: checked before) with the defaults that decide the peer's behaviour and have changed
     * between builds named, so that a configuration's identity, its plan line and the store say what ran: runs of
     * a stored campaign made under an older default are then never mixed with runs under the new one. Most peers
     * name nothing.
     */
    default Map<String, String> withDefaultsNamed(Role role, Map<String, String> options) {
        return options;
    }

    /**
     * One sentence when the options cannot work in this mode on any host (e.g. per-packet send times over the relay's
     * loopback), else null. {@code qdisc} is the server host's qdisc of the configuration.
     */
    default String modeProblem(Role role, Map<String, String> options, Mode mode, String qdisc) {
        return null;
    }

    /**
     * One sentence when this host cannot do what the options ask in this mode (e.g. a send strategy the kernel does
     * not support), else null; such a configuration is skipped when the scenario says {@code unavailable: skip}.
     */
    default String hostProblem(Role role, Map<String, String> options, Mode mode, String qdisc, Host host) {
        return null;
    }

    /** Whether it can write an NSS key log in this role (the runner asks the server, else the client). */
    default boolean writesKeyLog(Role role) {
        return true;
    }

    /** Something a report reader must know about this peer's results (e.g. "does not pace"), or null. */
    default String caveat() {
        return null;
    }

    Availability availability(Role role, Host host, PacelabLauncher pacelab);

    /** How pacelab builds it from pinned sources into the peer cache ({@code pacelab peers install}), or null. */
    default PeerBuild build() {
        return null;
    }

    /** Its version as installed here (for the environment record). */
    String version(Role role, Host host, PacelabLauncher pacelab);

    /** Adds files the client needs in the served directory (e.g. Chromium's download page). */
    default void prepareDocumentRoot(Path root) throws IOException {}

    Launch server(ServerSetup setup, PacelabLauncher pacelab) throws IOException;

    Launch client(ClientSetup setup, PacelabLauncher pacelab) throws IOException;

    /** Reads what the client received after it exited; {@code stdout} holds its standard output. */
    ClientOutcome clientOutcome(ClientSetup setup, Path stdout) throws IOException;
}
