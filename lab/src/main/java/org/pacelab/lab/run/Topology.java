package org.pacelab.lab.run;

import java.util.List;

import org.pacelab.lab.peer.Role;

/**
 * The network of one emulated run, with the emulator already running: where the server listens, where the client
 * connects, and how a command is started on either side. Closing it stops the emulator (which finishes writing the
 * tap and the event log) and removes what it created.
 */
interface Topology extends AutoCloseable {
    String serverAddress();

    int serverPort();

    String clientHost();

    int clientPort();

    /** The emulator's process, which must run until the topology is closed; null when nothing runs in the path (direct mode). */
    ChildProcess emulator();

    /** The command as it must be started for that side (e.g. inside the side's network namespace). */
    List<String> wrap(Role role, List<String> command);

    @Override
    void close() throws RunFailedException;
}
