package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.pacelab.lab.peer.ClientOutcome;
import org.pacelab.lab.peer.ClientSetup;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.peer.ServerSetup;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;

/**
 * One repetition in relay or netns mode: emulator, server and client as separate processes; readiness waits; the
 * client's timeout; then everything stopped (the emulator last, so the tap is complete), the transfer checked
 * and the run analysed. Every process of the run is stopped on every path out, failures included.
 */
final class EmulatedRunExecutor {
    static final long READY_TIMEOUT_NS = 60_000_000_000L;
    private static final long SERVER_STOP_MILLIS = 5_000;
    /** After the client exits, servers finish their qlog when the connection closes (draining); wait for that. */
    private static final long QLOG_QUIET_MILLIS = 400;
    private static final long QLOG_SETTLE_MAX_MILLIS = 5_000;

    private final EmulatedRunTools tools;

    EmulatedRunExecutor(EmulatedRunTools tools) {
        this.tools = tools;
    }

    AnalysedRun run(RunSpec run, Path dir, List<String> paths) throws RunFailedException, InterruptedException {
        Configuration c = run.configuration();
        Topology topology = null;
        ChildProcess server = null;
        ChildProcess client = null;
        long clientWall;
        ClientSetup clientSetup;
        try {
            topology = switch (c.mode()) {
                case NETNS -> NetnsTopology.start(tools.supervisor(), tools.pacelab(), c, run.seed(), dir, tools.collect(), READY_TIMEOUT_NS);
                case DIRECT -> DirectTopology.start();
                default -> RelayTopology.start(tools.supervisor(), tools.pacelab(), c, run.seed(), dir, tools.collect(), READY_TIMEOUT_NS);
            };
            Path qlog = null;
            if (tools.collect().qlog()) {
                qlog = dir.resolve(RunFiles.QLOG);
                Files.createDirectories(qlog);
            }
            // one writer of the key log: the server's secrets decrypt both directions; a client writes it when the
            // server cannot (Kwik)
            Path keys = dir.resolve(RunFiles.KEYS);
            Path serverKeys = tools.collect().keylog() && c.server().writesKeyLog(Role.SERVER) ? keys : null;
            Path clientKeys = tools.collect().keylog() && serverKeys == null && c.client().writesKeyLog(Role.CLIENT) ? keys : null;
            ServerSetup serverSetup = new ServerSetup(dir, topology.serverAddress(), topology.serverPort(), tools.documentRoot(),
                    tools.pki().certificate(), tools.pki().privateKey(), serverKeys, qlog, c.serverOptions(), c.protocol());
            Launch sl = c.server().server(serverSetup, tools.pacelab());
            List<List<String>> before = new ArrayList<>();
            if (topology instanceof NetnsTopology n && !c.qdisc().equals("none")) {
                before.add(placed(topology, Role.SERVER, n.qdiscCommand(c.qdisc())));
            }
            if (c.mode() == Mode.DIRECT && !sl.before().isEmpty()) {
                throw new RunFailedException("server " + c.server().name() + " needs set-up commands in its own network namespace ("
                        + String.join(" ", sl.before().getFirst()) + "), which direct mode does not have; use mode: netns");
            }
            for (List<String> b : sl.before()) {
                before.add(placed(topology, Role.SERVER, b));
            }
            for (List<String> b : sl.hostBefore()) {
                runSetupCommand(tools.host().resolve(b), dir);
            }
            for (List<String> b : before) {
                runSetupCommand(b, dir);
            }
            server = tools.supervisor().start("server " + c.server().name(), placed(topology, Role.SERVER, sl.command()), sl.environment(), dir,
                    RunFiles.log(dir, "server", "out"), RunFiles.log(dir, "server", "err"));
            ChildProcess s = server;
            Waits.until(server, () -> PortProbe.ready(s.pid(), sl.readiness()), READY_TIMEOUT_NS,
                    "server " + c.server().name() + " to listen on port " + sl.readiness().port());

            clientSetup = new ClientSetup(dir, topology.clientHost(), topology.clientPort(), paths, c.transfer().totalBytes(),
                    tools.pki().certificate(), clientKeys, c.timeoutNs(), c.clientOptions(), c.protocol());
            Launch cl = c.client().client(clientSetup, tools.pacelab());
            Path clientOut = RunFiles.log(dir, "client", "out");
            long start = System.nanoTime();
            client = tools.supervisor().start("client " + c.client().name(), placed(topology, Role.CLIENT, cl.command()), cl.environment(), dir,
                    clientOut, RunFiles.log(dir, "client", "err"));
            // an emulator or server that dies (a full disk, a crash) fails the run at once instead of leaving the client
            // waiting for packets until its timeout; the emulator is named first, its death explains the others'
            List<Waits.Watched> watched = new ArrayList<>();
            if (topology.emulator() != null) {
                watched.add(new Waits.Watched("the emulator", topology.emulator()));
            }
            watched.add(new Waits.Watched("server " + c.server().name(), server));
            boolean done = Waits.exit(client, c.timeoutNs(), watched);
            clientWall = System.nanoTime() - start;
            if (!done) {
                throw new RunFailedException("client " + c.client().name() + " did not finish within " + c.timeoutNs() / 1_000_000_000L
                        + " s (the timeout); its last output: " + client.tail());
            }
            tools.supervisor().forget(client);
            Waits.requireAlive(watched, "during the transfer");
            int exit = client.process().exitValue();
            if (exit != 0) {
                throw new RunFailedException("client " + c.client().name() + " exited with status " + exit + ": " + client.tail());
            }
            if (qlog != null) {
                Waits.quiet(qlog, QLOG_QUIET_MILLIS, QLOG_SETTLE_MAX_MILLIS);
            }
            tools.supervisor().stop(server, SERVER_STOP_MILLIS);
            server = null;
            Topology t = topology;
            topology = null;
            t.close();
            if (c.mode() != Mode.DIRECT) {
                requireFinishedFiles(dir, tools.collect());
            }
            ClientOutcome outcome = clientOutcome(c.client(), clientSetup, clientOut);
            if (outcome.bytes() != c.transfer().totalBytes()) {
                throw new RunFailedException("client " + c.client().name() + " received " + outcome.bytes() + " of "
                        + c.transfer().totalBytes() + " bytes");
            }
            return RunAnalysis.analyze(dir, run.key(), serverSetup.port(), c.transfer().totalBytes(), outcome.clientLog(),
                    clientWall, c.client().name(), tools.collect(), c.mode() == Mode.DIRECT ? DirectTopology.NO_TAP : null,
                    c.link());
        } catch (IOException e) {
            throw new RunFailedException(e.getMessage(), e);
        } finally {
            if (client != null && client.alive()) {
                tools.supervisor().stop(client, 2_000);
            }
            if (server != null) {
                tools.supervisor().stop(server, SERVER_STOP_MILLIS);
            }
            if (topology != null) {
                try {
                    topology.close();
                } catch (RunFailedException e) {
                    // the failure that brought us here is the one reported
                }
            }
        }
    }

    /**
     * The emulator writes the tap and the event log as {@code FILE.part} and renames each when it has written all of it;
     * a file still unfinished after the emulator stopped (a full disk while it flushed) fails the run, which must not be
     * analysed and stored as finished without it.
     */
    static void requireFinishedFiles(Path dir, Collect collect) throws RunFailedException {
        List<String> names = new ArrayList<>();
        if (collect.tap()) {
            names.add(RunFiles.TAP);
        }
        if (collect.events()) {
            names.add(RunFiles.EVENTS);
        }
        for (String name : names) {
            if (Files.isRegularFile(dir.resolve(name))) {
                continue;
            }
            Path part = dir.resolve(name + ".part");
            String free;
            try {
                free = RunSpace.format(Files.getFileStore(dir).getUsableSpace()) + " free";
            } catch (IOException e) {
                free = "free space unknown";
            }
            throw new RunFailedException("the emulator stopped without finishing " + name + " ("
                    + (Files.isRegularFile(part) ? "only " + part.getFileName() + ", " + RunSpace.format(sizeOf(part))
                    + ", is there" : "it is not there") + "; " + free + " on its disk); the run is not stored");
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * The command as it starts in the role's place (inside its namespace in netns mode), every program by the path the
     * host found when it decided the peer was available, also when this process's PATH lacks its directory.
     */
    private List<String> placed(Topology topology, Role role, List<String> command) throws IOException {
        return tools.host().resolve(topology.wrap(role, tools.host().resolve(command)));
    }

    private static ClientOutcome clientOutcome(Peer client, ClientSetup setup, Path stdout) throws RunFailedException {
        try {
            return client.clientOutcome(setup, stdout);
        } catch (IOException e) {
            throw new RunFailedException("cannot read what client " + client.name() + " received: " + e.getMessage(), e);
        }
    }

    static void runSetupCommand(List<String> command, Path dir) throws RunFailedException, IOException, InterruptedException {
        Path log = dir.resolve("setup.log");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new RunFailedException("'" + String.join(" ", command) + "' did not finish within 30 s");
        }
        if (p.exitValue() != 0) {
            throw new RunFailedException("'" + String.join(" ", command) + "' failed with status " + p.exitValue() + ": "
                    + Files.readString(log).strip());
        }
    }
}
