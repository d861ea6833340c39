package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.lab.dc.DcRunAnalysis;
import org.pacelab.lab.dc.DcRunOutputs;
import org.pacelab.lab.peer.ClientOutcome;
import org.pacelab.lab.peer.ClientSetup;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.peer.Role;
import org.pacelab.lab.peer.ServerSetup;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.DcSetup;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.netns.NetnsLab;
import org.pacelab.net.spec.SpecException;

/**
 * One repetition of a dual-connectivity configuration (relay and netns mode; sim mode runs in {@link CampaignRunner}
 * and shares {@link #analyze}): the emulator with the two-path link and one route per
 * client/server pair (relay mode, all routes to one server process; in netns mode one server per pair, told apart by
 * server port), a client per pair (each in {@code flow-N/}), all clients started together and, for fixed-duration runs, stopped after the duration; then the
 * event log is turned into {@code dc-summary.json}, {@code dc-timeline.csv}, the figures and the run's summary
 * (Jain's fairness index, per-flow throughput, path utilization, reordering). Every process is stopped on every path
 * out.
 */
final class DcRunExecutor {
    private static final long SERVER_STOP_MILLIS = 5_000;
    private static final long EMULATOR_STOP_MILLIS = 30_000;

    private final EmulatedRunTools tools;

    DcRunExecutor(EmulatedRunTools tools) {
        this.tools = tools;
    }

    AnalysedRun run(RunSpec run, Path dir, List<String> paths) throws RunFailedException, InterruptedException {
        Configuration c = run.configuration();
        DcSetup dc = c.dc();
        int n = dc.flows().size();
        boolean netns = c.mode() == Mode.NETNS;
        ChildProcess emulator = null;
        NetnsTopology lab = null;
        List<ChildProcess> servers = new ArrayList<>();
        List<ChildProcess> clients = new ArrayList<>();
        try {
            int[] serverPorts = new int[n], clientPorts = new int[n];
            ports(netns, serverPorts, clientPorts);
            String serverAddress = netns ? NetnsLab.SERVER_V4 : RelayTopology.LOOPBACK;
            if (netns) {
                List<String> extra = new ArrayList<>();
                for (int i = 0; i < n; i++) extra.addAll(List.of("--port-path", serverPorts[i] + "=" + dc.flows().get(i).label()));
                lab = NetnsTopology.start(tools.supervisor(), tools.pacelab(), c, run.seed(), dir, tools.collect(), EmulatedRunExecutor.READY_TIMEOUT_NS, extra);
            } else {
                emulator = startRelay(c, dc, run.seed(), dir, serverPorts, clientPorts);
            }
            NetnsTopology ns = lab;
            // relay mode: one server serves every pair (the relay gives each pair its own route and socket toward it);
            // netns mode: one server per pair, so that the middlebox tells the pairs apart by server port
            int serverCount = netns ? n : 1;
            for (int i = 0; i < serverCount; i++) {
                Path flowDir = Files.createDirectories(dir.resolve("flow-" + (i + 1)));
                Path qlog = null;
                if (tools.collect().qlog()) qlog = Files.createDirectories(flowDir.resolve(RunFiles.QLOG));
                ServerSetup setup = new ServerSetup(flowDir, serverAddress, serverPorts[i], tools.documentRoot(), tools.pki().certificate(),
                        tools.pki().privateKey(), tools.collect().keylog() ? flowDir.resolve(RunFiles.KEYS) : null, qlog, c.serverOptions(), c.protocol());
                Launch sl = c.server().server(setup, tools.pacelab());
                for (List<String> b : sl.before()) EmulatedRunExecutor.runSetupCommand(wrap(ns, Role.SERVER, b), flowDir);
                ChildProcess server = tools.supervisor().start("server " + (i + 1) + " " + c.server().name(), wrap(ns, Role.SERVER,
                        sl.command()), sl.environment(), flowDir, RunFiles.log(flowDir, "server", "out"),
                        RunFiles.log(flowDir, "server", "err"));
                servers.add(server);
                Readiness ready = sl.readiness();
                Waits.until(server, () -> PortProbe.ready(server.pid(), ready), EmulatedRunExecutor.READY_TIMEOUT_NS,
                        "server " + (i + 1) + " (" + c.server().name() + ") to listen on port " + ready.port());
            }
            long clientTimeout = dc.durationNs() > 0 ? dc.durationNs() + 60_000_000_000L : c.timeoutNs();
            List<ClientSetup> setups = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Path flowDir = Files.createDirectories(dir.resolve("flow-" + (i + 1)));
                ClientSetup setup = new ClientSetup(flowDir, netns ? NetnsLab.SERVER_V4 : RelayTopology.LOOPBACK, clientPorts[i],
                        paths, c.transfer().totalBytes(), tools.pki().certificate(), null, clientTimeout, c.clientOptions(), c.protocol());
                setups.add(setup);
                Launch cl = c.client().client(setup, tools.pacelab());
                clients.add(tools.supervisor().start("client " + (i + 1) + " " + c.client().name(), wrap(ns, Role.CLIENT, cl.command()),
                        cl.environment(), flowDir, RunFiles.log(flowDir, "client", "out"), RunFiles.log(flowDir, "client", "err")));
            }
            long bytes = 0;
            // an emulator or server that dies fails the run at once (the clients would wait for packets until their timeout)
            List<Waits.Watched> watched = new ArrayList<>();
            watched.add(new Waits.Watched("the emulator", lab != null ? lab.emulator() : emulator));
            for (int i = 0; i < servers.size(); i++) {
                watched.add(new Waits.Watched("server " + (i + 1) + " (" + c.server().name() + ")", servers.get(i)));
            }
            if (dc.durationNs() > 0) {
                // the duration starts when every client talks: on a busy host a client's start can take seconds
                awaitTalking(clients, c.client().name());
                awaitDuration(clients, System.nanoTime() + dc.durationNs(), c.client().name(), watched);
            } else {
                for (int i = 0; i < n; i++) {
                    ChildProcess client = clients.get(i);
                    long left = Math.max(1, c.timeoutNs() - (System.nanoTime() - start));
                    if (!Waits.exit(client, left, watched)) {
                        throw new RunFailedException("client " + (i + 1) + " (" + c.client().name() + ") did not finish within "
                                + c.timeoutNs() / 1_000_000_000L + " s (the timeout); its last output: " + client.tail());
                    }
                    // a client that exits because the emulator or a server died: name the death, not the client's status
                    Waits.requireAlive(watched, "during the transfer");
                    if (client.process().exitValue() != 0) {
                        throw new RunFailedException("client " + (i + 1) + " (" + c.client().name() + ") exited with status "
                                + client.process().exitValue() + ": " + client.tail());
                    }
                    ClientOutcome o = c.client().clientOutcome(setups.get(i), RunFiles.log(setups.get(i).workDir(), "client", "out"));
                    if (o.bytes() != c.transfer().totalBytes()) {
                        throw new RunFailedException("client " + (i + 1) + " (" + c.client().name() + ") received " + o.bytes()
                                + " of " + c.transfer().totalBytes() + " bytes");
                    }
                    bytes += o.bytes();
                }
            }
            long wall = System.nanoTime() - start;
            for (ChildProcess cp : clients) if (cp.alive()) tools.supervisor().stop(cp, 2_000); else tools.supervisor().forget(cp);
            for (int i = 0; i < servers.size(); i++) {
                if (!servers.get(i).alive()) {
                    throw new RunFailedException("server " + (i + 1) + " (" + c.server().name() + ") exited during the run: "
                            + servers.get(i).tail());
                }
                tools.supervisor().stop(servers.get(i), SERVER_STOP_MILLIS);
            }
            servers.clear();
            if (lab != null) {
                NetnsTopology t = lab;
                lab = null;
                t.close();
            } else {
                ChildProcess e = emulator;
                emulator = null;
                int exit = tools.supervisor().stop(e, EMULATOR_STOP_MILLIS);
                if (exit != 0 && exit != 143) {
                    throw new RunFailedException("the emulator exited with status " + exit + ": " + e.tail());
                }
            }
            // the event log (always written for dual connectivity) and the tap, finished, not a .part of an emulator that died
            Collect collect = tools.collect();
            EmulatedRunExecutor.requireFinishedFiles(dir, new Collect(collect.tap(), collect.qlog(), collect.keylog(), true,
                    collect.packets(), collect.keep()));
            String serverAddr = serverAddress;
            int[] ports = serverPorts;
            return analyze(dir, dc, wall, bytes, description -> java.util.Arrays.stream(ports)
                    .anyMatch(p -> description.contains(" " + serverAddr + ":" + p + " ")));
        } catch (IOException e) {
            throw new RunFailedException(e.getMessage(), e);
        } finally {
            for (ChildProcess cp : clients) if (cp.alive()) tools.supervisor().stop(cp, 2_000);
            for (ChildProcess sp : servers) if (sp.alive()) tools.supervisor().stop(sp, SERVER_STOP_MILLIS);
            if (emulator != null) tools.supervisor().stop(emulator, EMULATOR_STOP_MILLIS);
            if (lab != null) {
                try {
                    lab.close();
                } catch (RunFailedException e) {
                    // the failure that brought us here is the one reported
                }
            }
        }
    }

    private static void ports(boolean netns, int[] serverPorts, int[] clientPorts) throws IOException {
        Set<Integer> used = new HashSet<>();
        int shared = netns ? 0 : distinctPort(used);
        for (int i = 0; i < serverPorts.length; i++) {
            if (netns) {
                serverPorts[i] = NetnsTopology.PORT + i; // the namespaces are the run's own
                clientPorts[i] = serverPorts[i];
                continue;
            }
            serverPorts[i] = shared;
            clientPorts[i] = distinctPort(used);
        }
    }

    private static int distinctPort(Set<Integer> used) throws IOException {
        for (int tries = 0; tries < 100; tries++) {
            int p = PortProbe.freePort();
            if (used.add(p)) return p;
        }
        throw new IOException("no free port found");
    }

    /** {@code pacelab emulate} with one route per pair; ready when every listening port is bound. */
    private ChildProcess startRelay(Configuration c, DcSetup dc, long seed, Path dir, int[] serverPorts, int[] clientPorts)
            throws IOException, RunFailedException, InterruptedException {
        String lo = RelayTopology.LOOPBACK;
        List<String> args = new ArrayList<>(List.of("emulate", "--listen", lo + ":" + clientPorts[0], "--to",
                lo + ":" + serverPorts[0], "--path", dc.flows().getFirst().label()));
        for (int i = 1; i < serverPorts.length; i++) {
            args.addAll(List.of("--route", lo + ":" + clientPorts[i] + "=" + lo + ":" + serverPorts[i] + "@" + dc.flows().get(i).label()));
        }
        args.addAll(EmulatorArguments.of(c, seed, dir, tools.collect()));
        Path out = RunFiles.log(dir, "emulator", "out");
        ChildProcess emu = tools.supervisor().start("emulator", tools.pacelab().command(args), Map.of(), dir, out,
                RunFiles.log(dir, "emulator", "err"));
        for (int port : clientPorts) {
            Readiness.UdpBound ready = new Readiness.UdpBound(port);
            Waits.until(emu, () -> RelayTopology.relaying(out) && PortProbe.ready(emu.pid(), ready), EmulatedRunExecutor.READY_TIMEOUT_NS,
                    "the emulator to listen on UDP port " + port);
        }
        return emu;
    }

    private static final long CLIENT_START_NS = 120_000_000_000L;

    /** Waits until every client has opened its socket (its first packet goes out then). */
    private static void awaitTalking(List<ChildProcess> clients, String clientName) throws RunFailedException, InterruptedException {
        for (int i = 0; i < clients.size(); i++) {
            ChildProcess cp = clients.get(i);
            Waits.until(cp, () -> PortProbe.hasInternetSocket(cp.pid()), CLIENT_START_NS,
                    "client " + (i + 1) + " (" + clientName + ") to open its socket");
        }
    }

    /** Waits out a fixed-duration run; a client that fails before the end fails the run, and so does a watched process that exits. */
    private static void awaitDuration(List<ChildProcess> clients, long end, String clientName, List<Waits.Watched> watched)
            throws RunFailedException, InterruptedException {
        while (true) {
            long left = end - System.nanoTime();
            Waits.requireAlive(watched, "during the run");
            for (int i = 0; i < clients.size(); i++) {
                ChildProcess cp = clients.get(i);
                if (!cp.alive() && cp.process().exitValue() != 0) {
                    throw new RunFailedException("client " + (i + 1) + " (" + clientName + ") exited with status "
                            + cp.process().exitValue() + " before the run's duration was over: " + cp.tail());
                }
            }
            if (left <= 0) return;
            Thread.sleep(Math.min(200, Math.max(1, left / 1_000_000)));
        }
    }

    /** The command as it starts in the role's place, its programs by the paths the host found. */
    private List<String> wrap(NetnsTopology ns, Role role, List<String> command) throws IOException {
        List<String> c = tools.host().resolve(command);
        return ns == null ? c : tools.host().resolve(ns.wrap(role, c));
    }

    /**
     * Measures a run from its event log (relay, namespace middlebox or simulator alike) into {@code dir}: the DC report
     * files and the run summary. {@code pair} tells the flows of the run's client/server pairs (by their server
     * address) from other traffic; {@code bytes} is what the clients received, 0 = take the flows' bytes.
     */
    static AnalysedRun analyze(Path dir, DcSetup dc, long wallNs, long bytes, java.util.function.Predicate<String> pair)
            throws RunFailedException {
        Path events = dir.resolve(RunFiles.EVENTS);
        try {
            DcRunOutputs.Written w = DcRunOutputs.write(events, dir, dc.spec(), pair);
            DcRunAnalysis.Result r = w.result();
            Summary s = w.summary();
            long received = bytes;
            if (received == 0) {
                for (var f : r.summary().flows()) received += f.bytes();
            }
            return new AnalysedRun(s, null, null, wallNs, received);
        } catch (IOException | EventLogReader.EventLogFormatException | SpecException e) {
            throw new RunFailedException("the analysis of " + events + " failed: " + e.getMessage(), e);
        }
    }
}
