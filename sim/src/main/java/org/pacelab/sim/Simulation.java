package org.pacelab.sim;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.RunResult;
import org.pacelab.io.log.QlogDirectory;
import org.pacelab.io.runtime.ClientLog;
import org.pacelab.io.runtime.Preparation;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.dc.DcFactory;
import org.pacelab.net.dc.DualConnectivityDownlink;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.RandomStreams;
import org.pacelab.net.log.EventLogWriter;
import org.pacelab.net.log.LinkCounters;
import org.pacelab.net.pcap.PcapngWriter;
import org.pacelab.net.spec.LinkFactory;
import org.pacelab.net.spec.PathCapacity;
import org.pacelab.net.spec.SpecException;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.tls.TlsConfig;
import org.pacelab.sim.engine.EventEngine;
import org.pacelab.sim.host.CallTimer;
import org.pacelab.sim.host.Host;
import org.pacelab.sim.host.HostTiming;
import org.pacelab.sim.host.PacketIds;
import org.pacelab.sim.output.CapturePipe;
import org.pacelab.sim.output.KeyLogCollector;
import org.pacelab.sim.output.QlogFiles;
import org.pacelab.sim.output.RunFiles;
import org.pacelab.sim.output.RunSummary;
import org.pacelab.sim.output.ScenarioJson;
import org.pacelab.sim.output.TapRecorder;
import org.pacelab.sim.output.VirtualEpoch;
import org.pacelab.sim.random.DeterministicRandomProvider;
import org.pacelab.sim.random.RandomScope;
import org.pacelab.sim.random.SeededSecureRandom;

/**
 * Runs one {@link SimScenario}: a pacelab server and one or more clients — the unmodified QUIC stack with the same
 * HTTP/3 and hq-interop handlers as the real runtime — on modelled hosts, joined by the emulator's link model (one
 * path, or the dual-connectivity downlink of {@link DcFactory}), in virtual time. Writes the same files an emulated
 * run produces plus, for one flow over one path, the analyzer's summary.
 *
 * <p>Several client/server pairs ({@link SimScenario#flows()}) share the link as the relay's routes do: one server
 * host serves them all (the relay's one server process), or with {@link SimScenario#serverPerFlow()} each pair has its
 * own server host ({@link SimServer}: endpoint, event loop, socket and qdisc; netns mode's one server process per
 * flow); client i has its own host, address
 * ({@link SimScenario#clientAddress(int)}) and flow id i + 1, and on a dual-connectivity link its flow is assigned
 * dc, a or b before its first packet. Each client starts at {@link #START} plus its pair's
 * {@link SimScenario#flowStart(int)} (all at once by default) and downloads its transfer, or for
 * {@link SimScenario#duration()} from its own start, and then closes its connection. The event log carries every path's events and one FLOW record per pair (ending in
 * {@code path=MODE} on a dual-connectivity link), so the relay's multi-flow analysis (fairness, path utilization,
 * reordering) reads a simulated run unchanged; each client's log is {@code client.json} for one pair and
 * {@code flow-N/client.json} for several.
 *
 * <p>Deterministic: every random draw comes from the scenario seed, split per component by name
 * ({@link RandomStreams}): the link's own streams, {@code server/quic}, {@code client/quic} (connection IDs,
 * BBR), {@code server/tls}, {@code client/tls} (the TLS library's randoms and ECDHE keys, through
 * {@link DeterministicRandomProvider}), {@code server/host}, {@code client/host} (timer lateness),
 * {@code server/qdisc}, {@code client/qdisc}, {@code server/endpoint-key}, {@code client/reset-key}; the second and
 * later clients use {@code client-N/...} likewise, and so do the second and later servers ({@code server-N/...}) when
 * each pair has its own. No output
 * contains a wall-clock reading: virtual time 0 is {@link VirtualEpoch}.
 *
 * <p>Runs are independent: a run touches no shared mutable state but the JVM-wide provider (thread-scoped), so
 * several may run at once on different threads.
 */
public final class Simulation {
    /** Virtual time at which hosts start (not 0: some code treats 0 as "unset"). */
    public static final long START = 1_000_000_000L;
    /** After the client ends, the server gets this long to drain its connection before the run stops. */
    static final long DRAIN = 10_000_000_000L;
    /** The tap and the event log are synced to the disk in the background after every this many bytes written. */
    static final long SYNC_AHEAD_BYTES = 8L << 20;

    static {
        DeterministicRandomProvider.install();
    }

    private Simulation() {}

    /**
     * Makes the JDK's SecureRandom deterministic on simulation threads. Done by this class's initialiser; a
     * process that performs TLS handshakes itself before its first simulation must call this first.
     */
    /** The link's BDP plus buffer for the slow-start overshoot, or null when it has none (no rate or queue limit). */
    static Long pathCapacity(SimScenario s) throws IOException {
        try {
            long c = PathCapacity.bytes(s.link());
            return c > 0 ? c : null;
        } catch (SpecException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    public static void prepareJvm() {
        DeterministicRandomProvider.install();
    }

    /**
     * Starts, on a daemon thread, the one-time work of a JVM's first run that needs no scenario, so that it overlaps
     * parsing the options and setting up the run instead of following them: the bundled host model (Jackson's start),
     * libcrypto's bindings and the JDK's HMAC and AES (a throwaway set of packet keys), and the simulated server's
     * certificate (the JDK's P-256 generator tables, ~0.1 s of CPU, which the handshake's signature needs too). Each
     * is a class's initialisation, so a run that gets there first waits for it rather than doing it twice; none of it
     * draws from a simulation's random streams (the certificate has its own seeded stream), so the run's outputs are
     * the same bytes (docs/benchmarks.md, "Simulator", 2026-12-03 evening). For the CLI's {@code sim} process.
     */
    public static void prepareInBackground() {
        // two threads: the certificate (the longest) must not wait behind the others; in one thread the run's own
        // thread reached it first in a JFR profile and built the tables itself
        Preparation.inBackground("sim-prepare-certificate", Identity::get);
        Preparation.inBackground("sim-prepare", () -> {
            HostTiming.defaults();
            Preparation.packetProtection();
        });
    }

    /** Runs the scenario; its output directory is created (existing files of the same names are replaced). */
    public static SimResult run(SimScenario s) throws IOException {
        return run(s, null);
    }

    /**
     * Runs the scenario, telling {@code timer} the wall-clock duration of every connection call of both hosts
     * (calibration). So that the timed calls cost what they cost in the real runtime, the server then writes its
     * qlog as {@link QlogDirectory} does (flushed after every record, into {@code DIR/calibration-qlog/}) instead
     * of into {@code DIR/qlog/}; the other outputs do not change.
     */
    public static SimResult run(SimScenario s, CallTimer timer) throws IOException {
        long wallStart = System.nanoTime();
        Files.createDirectories(s.outputDir());
        RunFiles files = new RunFiles(s.outputDir());
        files.removePrevious();
        int n = s.flows().size();
        List<InetSocketAddress> clientAddresses = new ArrayList<>();
        Map<InetSocketAddress, Integer> flowOfClient = new HashMap<>();
        for (int i = 0; i < n; i++) {
            clientAddresses.add(s.clientAddress(i));
            flowOfClient.put(s.clientAddress(i), i + 1);
        }
        RandomStreams streams = new RandomStreams(s.seed());
        RandomScope scope = RandomScope.ofCurrentThread();
        KeyLogCollector keys = new KeyLogCollector();
        LinkCounters linkCounters = new LinkCounters();
        EventLogWriter events = new EventLogWriter(files.events(), VirtualEpoch.EPOCH_NANOS, s.seed());
        // the files' syncs at close overlap the run instead of following it (0.2-0.27 s of a 100 MiB run's tail)
        events.syncAhead(SYNC_AHEAD_BYTES);
        // its records written to the file on their own thread (batches handed over, as the tap's): EventLogWriter
        events.writeOnThread("event-log-writer");
        TapRecorder tap = null;
        CapturePipe capturePass = null;
        QlogFiles serverQlogs = null;
        List<QlogFiles> clientQlogs = new ArrayList<>();
        List<QlogFiles> extraServerQlogs = new ArrayList<>();
        boolean finished = false;
        try {
            LinkObserver observer = LinkObserver.both(linkCounters, events);
            // the analyzer reads the server's qlog and the tap as they are written when it will analyse this run
            boolean analyzed = s.analyze() && !s.multiFlowOrDc();
            if (s.tap()) {
                if (analyzed && timer == null) {
                    capturePass = new CapturePipe(files.tap(), s.serverAddress().getPort(), AnalysisOptions.DEFAULT_THRESHOLD_NS,
                            files.keyLog());
                    keys.onHandshakeSecrets(capturePass::keyLog);
                }
                PcapngWriter pcapng = new PcapngWriter(files.tap(), PcapngWriter.LINKTYPE_RAW, s.snaplen(), "tap",
                        capturePass == null ? null : capturePass.copy());
                pcapng.syncAhead(SYNC_AHEAD_BYTES);
                // written on its own thread (the headers, their checksums, the blocks): TapRecorder
                tap = new TapRecorder(pcapng, s.serverAddress(), clientAddresses);
                observer = LinkObserver.both(observer, tap);
            }
            serverQlogs = analyzed && timer == null && s.serverQlog() ? QlogFiles.readFirst(files.qlogDir(), "server")
                    : new QlogFiles(files.qlogDir(), "server");
            Link link = link(s, observer);
            for (int i = 0; i < n; i++) {
                String client = format(clientAddresses.get(i));
                // as the relay describes its flows; " path=MODE" tells the analysis how a flow used a dc link
                events.describeFlow(i + 1, START, "udp " + format(s.serverAddress()) + " " + client + " client " + client
                        + (s.dc() != null ? " path=" + s.flows().get(i).label() : ""));
            }

            EventEngine engine = new EventEngine(START);
            SimNetwork network = new SimNetwork(link, s.serverAddress(), clientAddresses);
            PacketIds ids = new PacketIds();

            // servers: one endpoint serving /bytes/N to every client with the real runtime's handlers (as the relay's
            // one server process serves every route), or one per pair (as netns mode runs a server process per flow)
            Certificates.Identity id = Identity.get();
            List<SimServer> servers = new ArrayList<>();
            int serverCount = s.serverPerFlow() ? n : 1;
            for (int i = 0; i < serverCount; i++) {
                String name = i == 0 ? "server" : "server-" + (i + 1);
                Function<byte[], QlogSink> qlog = null;
                if (timer != null) {
                    // timed for calibration: the qlog is written as the io runtime writes it, a flush per record
                    qlog = new QlogDirectory(files.dir().resolve("calibration-qlog"), name, true);
                } else if (s.serverQlog()) {
                    QlogFiles q = i == 0 ? serverQlogs : new QlogFiles(files.qlogDir(), name);
                    if (i > 0) {
                        extraServerQlogs.add(q);
                    }
                    qlog = q;
                }
                InetSocketAddress only = s.serverPerFlow() ? clientAddresses.get(i) : null;
                String serverName = name;
                servers.add(new SimServer(s, name, streams, network, ids, id, keys, a -> {
                    Integer flow = flowOfClient.get(a);
                    if (flow == null || only != null && !only.equals(a)) {
                        throw new IllegalStateException("the simulated " + serverName + " sends to " + a
                                + ", which is not its client");
                    }
                    return flow;
                }, qlog));
            }
            List<Host> serverHosts = servers.stream().map(v -> v.host).toList();

            // clients: one host and connection per pair, starting at START (plus the pair's offset, --flow-starts)
            List<SimClient> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String name = i == 0 ? "client" : "client-" + (i + 1);
                QlogFiles q = s.clientQlog() ? new QlogFiles(files.qlogDir(), name) : null;
                if (q != null) {
                    clientQlogs.add(q);
                }
                clients.add(SimClient.create(s, i, streams, network, ids, q));
            }
            for (Host h : serverHosts) {
                h.timeCalls(timer);
            }
            List<Host> clientHosts = clients.stream().map(c -> c.host).toList();
            for (Host h : clientHosts) {
                h.timeCalls(timer);
            }
            network.connect(serverHosts, clientHosts);

            engine.add(network);
            for (SimServer v : servers) {
                engine.add(v.qdisc);
            }
            for (SimClient c : clients) {
                engine.add(c.qdisc);
            }
            for (Host h : serverHosts) {
                engine.add(h);
            }
            for (Host h : clientHosts) {
                engine.add(h);
            }
            // checked after every event: a loop over an array, not a stream (in C1-compiled code, as a short run's
            // JVM runs, the stream cost ~1 % of the main thread: docs/benchmarks.md "Simulator")
            Host[] clientHostArray = clientHosts.toArray(Host[]::new);
            engine.run(START + s.lastFlowStart() + s.timeout() + DRAIN, () -> allStopped(clientHostArray));
            long clientEnd = START;
            List<Boolean> timedOut = new ArrayList<>();
            for (SimClient c : clients) {
                clientEnd = Math.max(clientEnd, c.end(engine.now()));
                boolean t = !c.connection.isTerminated();
                timedOut.add(t);
                if (t) {
                    scope.use(c.tls);
                    try {
                        c.connection.close(0x0, "client timeout");
                    } finally {
                        scope.clear();
                    }
                }
            }
            engine.run(engine.now() + DRAIN, () -> network.idle() && servers.stream().allMatch(SimServer::done));
            long end = engine.now();

            // outputs
            if (tap != null) {
                tap.close();
            }
            if (capturePass != null) {
                capturePass.close();
            }
            events.close();
            serverQlogs.closeAll();
            for (QlogFiles q : extraServerQlogs) {
                q.closeAll();
            }
            for (QlogFiles q : clientQlogs) {
                q.closeAll();
            }
            keys.write(files.keyLog());
            checkTlsRandomness(keys, clients.stream().map(c -> c.tls).toList());
            List<SimResult.FlowResult> flows = new ArrayList<>();
            for (SimClient c : clients) {
                flows.add(finish(s, c, timedOut.get(c.index), c.end(end), n == 1 ? files.clientLog() : files.flowClientLog(c.flow)));
            }

            Map<String, Long> counters = new LinkedHashMap<>();
            counters.put("link_down_drops", linkCounters.totalDrops(Direction.DOWN));
            counters.put("link_down_queue_full_drops", linkCounters.drops(Direction.DOWN, DropCause.QUEUE_FULL));
            counters.put("link_up_drops", linkCounters.totalDrops(Direction.UP));
            for (Host h : serverHosts) {
                counters.putAll(h.counters());
            }
            for (Host h : clientHosts) {
                counters.putAll(h.counters());
            }
            counters.put("engine_events", engine.events());
            long bytes = flows.stream().mapToLong(SimResult.FlowResult::bodyBytes).sum();
            boolean completed = flows.stream().allMatch(SimResult.FlowResult::completed);
            String outcome = outcome(s, flows);
            ScenarioJson.write(files.scenario(), s, START, end, clientEnd, completed, outcome, counters, flows);
            RunResult analysis = analyzed ? RunSummary.analyze(files, s.serverAddress().getPort(),
                    serverQlogs.files().isEmpty() ? null : serverQlogs.files().getFirst(), serverQlogs::firstTraces,
                    capturePass == null ? null : capturePass.result(), pathCapacity(s)) : null;
            List<DownloadResult> all = new ArrayList<>();
            clients.forEach(c -> all.addAll(c.results));
            double goodput = s.duration() > 0 ? bytes * 8.0 / (s.duration() / 1e9) / 1e6 : goodput(all);
            SimResult result = new SimResult(files, completed, outcome, end - START, clientEnd - START, bytes, goodput,
                    System.nanoTime() - wallStart, engine.events(), counters, analysis, flows,
                    capturePass == null ? null : capturePass.status());
            if (capturePass != null) {
                System.getLogger(Simulation.class.getName()).log(System.Logger.Level.DEBUG,
                        "the capture's streamed pass: {0}", result.capturePass());
            }
            finished = true;
            return result;
        } finally {
            // whatever ended the run (an Error too): the partial files go, and the server qlog's reader thread ends
            // (QlogFiles.discard) instead of waiting for bytes for as long as the JVM lives
            if (!finished) {
                events.discard();
                if (tap != null) tap.discard();
                if (capturePass != null) capturePass.abort();
                if (serverQlogs != null) serverQlogs.discard();
                for (QlogFiles q : extraServerQlogs) q.discard();
                for (QlogFiles q : clientQlogs) q.discard();
            }
            scope.clear();
        }
    }

    private static boolean allStopped(Host[] hosts) {
        for (Host h : hosts) {
            if (!h.stopped()) {
                return false;
            }
        }
        return true;
    }

    /** The scenario's link: the single-path model, or the dual-connectivity one with every pair's flow assigned. */
    private static Link link(SimScenario s, LinkObserver observer) {
        try {
            if (s.dc() == null) {
                return LinkFactory.build(s.link(), s.seed(), START, observer);
            }
            Link link = DcFactory.build(s.dc(), s.seed(), START, observer);
            DualConnectivityDownlink down = (DualConnectivityDownlink) link.down();
            for (int i = 0; i < s.flows().size(); i++) {
                down.assign(i + 1, s.flows().get(i));
            }
            return link;
        } catch (SpecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Writes a client's log and says how it ended. */
    private static SimResult.FlowResult finish(SimScenario s, SimClient c, boolean timedOut, long clientEnd, Path clientLog)
            throws IOException {
        List<DownloadResult> finished = List.copyOf(c.results);
        long handshake = c.connections.handshakeDone();
        ClientLog.write(clientLog, new QuicClient.Outcome(finished, c.start, clientEnd, c.connection.closeErrorCode(),
                c.connection.closeReason(), timedOut, handshake < 0 ? -1 : handshake - c.start), c.start, clientEnd);
        boolean downloaded = !timedOut && finished.size() == s.streams() && finished.stream().allMatch(DownloadResult::succeeded);
        boolean completed;
        String outcome;
        if (timedOut) {
            completed = false;
            outcome = "the client timed out after " + s.timeout() / 1_000_000_000.0 + " s of virtual time";
        } else if (downloaded) {
            completed = true;
            outcome = "all " + finished.size() + " downloads completed";
        } else if (c.connections.closedAtDuration()) {
            completed = true;
            outcome = "downloaded for " + s.duration() / 1_000_000_000.0 + " s";
        } else {
            completed = false;
            outcome = "the connection closed before the downloads completed: " + describeFailure(finished, c.connection);
        }
        double goodput = s.duration() > 0 && c.connections.closedAtDuration()
                ? c.bodyBytes() * 8.0 / (s.duration() / 1e9) / 1e6 : goodput(finished);
        return new SimResult.FlowResult(c.flow, c.mode, c.address, c.bodyBytes(), goodput, completed, outcome,
                handshake < 0 ? -1 : handshake - c.start, clientEnd - START);
    }

    private static String outcome(SimScenario s, List<SimResult.FlowResult> flows) {
        if (flows.size() == 1) {
            return flows.getFirst().outcome();
        }
        for (SimResult.FlowResult f : flows) {
            if (!f.completed()) {
                return "flow " + f.flow() + " (" + f.mode().label() + "): " + f.outcome();
            }
        }
        return s.duration() > 0 ? "all " + flows.size() + " flows downloaded for " + s.duration() / 1_000_000_000.0 + " s"
                : "all downloads of the " + flows.size() + " flows completed";
    }

    static ConnectionConfig connectionConfig(SimScenario s, TlsConfig tls, long lookahead) {
        return ConnectionConfig.defaults(tls, s.congestion())
                .withMaxUdpPayloadSize(s.maxUdpPayload())
                .withIdleTimeout(s.idleTimeout())
                .withPacingLookahead(lookahead);
    }

    /**
     * The handshake's client random must have come from the client's seeded stream; if it did not, some
     * SecureRandom was created before {@link DeterministicRandomProvider} was installed and the run is not
     * reproducible.
     */
    private static void checkTlsRandomness(KeyLogCollector keys, List<RandomScope.Source> clientTls) {
        for (byte[] random : keys.clientRandoms()) {
            if (clientTls.stream().noneMatch(t -> t.produced(random))) {
                throw new IllegalStateException("the TLS client random did not come from the simulation's seeded stream:"
                        + " a SecureRandom was created before the simulator's provider was installed, so this run is not"
                        + " reproducible; call Simulation.prepareJvm() before any TLS use in this JVM");
            }
        }
    }

    private static String describeFailure(List<DownloadResult> results, QuicConnection c) {
        for (DownloadResult r : results) {
            if (!r.succeeded()) {
                return r.error();
            }
        }
        return "close code " + c.closeErrorCode() + (c.closeReason() == null || c.closeReason().isEmpty() ? "" : " (" + c.closeReason() + ")");
    }

    private static double goodput(List<DownloadResult> results) {
        long bytes = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (DownloadResult r : results) {
            if (r.requestSentNanos() < 0 || r.lastByteNanos() < 0) {
                continue;
            }
            bytes += r.bodyBytes();
            first = Math.min(first, r.requestSentNanos());
            last = Math.max(last, r.lastByteNanos());
        }
        return last > first ? bytes * 8.0 / ((last - first) / 1e9) / 1e6 : 0;
    }

    static byte[] bytes(RandomStreams streams, String name) {
        byte[] b = new byte[32];
        streams.stream(name).nextBytes(b);
        return b;
    }

    static String format(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The server's certificate: the same in every run (fixed key stream, times and serial). */
    /** The simulated server's certificate and key, from their own seeded stream: the same on whichever thread. */
    static Certificates.Identity newIdentity() {
        return Certificates.selfSigned(List.of("localhost", "10.77.1.1"),
                new SeededSecureRandom(new RandomStreams(0x9ACE1ABL).stream("certificate")),
                VirtualEpoch.EPOCH_NANOS / 1_000_000L - 86_400_000L, BigInteger.ONE);
    }

    private static final class Identity {
        private static final Certificates.Identity INSTANCE = newIdentity();

        static Certificates.Identity get() {
            return INSTANCE;
        }
    }
}
