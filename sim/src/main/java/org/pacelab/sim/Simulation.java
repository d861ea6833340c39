package org.pacelab.sim;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.pacelab.analysis.RunResult;
import org.pacelab.io.runtime.ClientLog;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.Link;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.RandomStreams;
import org.pacelab.net.log.EventLogWriter;
import org.pacelab.net.log.LinkCounters;
import org.pacelab.net.pcap.PcapngWriter;
import org.pacelab.net.spec.LinkFactory;
import org.pacelab.net.spec.SpecException;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.app.AlpnSelectingHandler;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.LocalConnectionIds;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.ServerEndpoint;
import org.pacelab.quic.conn.StatelessResetTokens;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.h3.H3ClientHandler;
import org.pacelab.quic.h3.H3ServerHandler;
import org.pacelab.quic.hq.HqClientHandler;
import org.pacelab.quic.hq.HqServerHandler;
import org.pacelab.quic.tls.TlsConfig;
import org.pacelab.sim.engine.EventEngine;
import org.pacelab.sim.host.CallTimer;
import org.pacelab.sim.host.ClientConnection;
import org.pacelab.sim.host.EndpointConnections;
import org.pacelab.sim.host.Host;
import org.pacelab.sim.host.PacketIds;
import org.pacelab.sim.output.KeyLogCollector;
import org.pacelab.sim.output.QlogFiles;
import org.pacelab.sim.output.RunFiles;
import org.pacelab.sim.output.RunSummary;
import org.pacelab.sim.output.ScenarioJson;
import org.pacelab.sim.output.TapRecorder;
import org.pacelab.sim.output.VirtualEpoch;
import org.pacelab.sim.qdisc.Qdisc;
import org.pacelab.sim.qdisc.Qdiscs;
import org.pacelab.sim.random.DeterministicRandomProvider;
import org.pacelab.sim.random.RandomScope;
import org.pacelab.sim.random.SeededSecureRandom;

/**
 * Runs one {@link SimScenario}: a pacelab server and client — the unmodified QUIC stack with the same HTTP/3 and
 * hq-interop handlers as the real runtime — on two modelled hosts, joined by the emulator's link model, in
 * virtual time. Writes the same files an emulated run produces plus the analyzer's summary.
 *
 * <p>Deterministic: every random draw comes from the scenario seed, split per component by name
 * ({@link RandomStreams}): the link's own streams, {@code server/quic}, {@code client/quic} (connection IDs,
 * BBR), {@code server/tls}, {@code client/tls} (the TLS library's randoms and ECDHE keys, through
 * {@link DeterministicRandomProvider}), {@code server/host}, {@code client/host} (timer lateness),
 * {@code server/qdisc}, {@code client/qdisc}, {@code server/endpoint-key}, {@code client/reset-key}. No output
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
    /** The link's flow id of the one client. */
    static final int FLOW = 1;

    static {
        DeterministicRandomProvider.install();
    }

    private Simulation() {}

    /**
     * Makes the JDK's SecureRandom deterministic on simulation threads. Done by this class's initialiser; a
     * process that performs TLS handshakes itself before its first simulation must call this first.
     */
    public static void prepareJvm() {
        DeterministicRandomProvider.install();
    }

    /** Runs the scenario; its output directory is created (existing files of the same names are replaced). */
    public static SimResult run(SimScenario s) throws IOException {
        return run(s, null);
    }

    /**
     * Runs the scenario, telling {@code timer} the wall-clock duration of every connection call of both hosts
     * (calibration; the outputs do not change).
     */
    public static SimResult run(SimScenario s, CallTimer timer) throws IOException {
        long wallStart = System.nanoTime();
        Files.createDirectories(s.outputDir());
        RunFiles files = new RunFiles(s.outputDir());
        files.removePrevious();
        RandomStreams streams = new RandomStreams(s.seed());
        RandomScope scope = RandomScope.ofCurrentThread();
        KeyLogCollector keys = new KeyLogCollector();
        LinkCounters linkCounters = new LinkCounters();
        EventLogWriter events = new EventLogWriter(files.events(), VirtualEpoch.EPOCH_NANOS, s.seed());
        PcapngWriter tap = null;
        QlogFiles serverQlogs = null;
        QlogFiles clientQlogs = null;
        try {
            tap = new PcapngWriter(files.tap(), PcapngWriter.LINKTYPE_RAW, s.snaplen(), "tap");
            serverQlogs = new QlogFiles(files.qlogDir(), "server");
            clientQlogs = s.clientQlog() ? new QlogFiles(files.qlogDir(), "client") : null;
            LinkObserver observer = LinkObserver.both(LinkObserver.both(linkCounters, events),
                    new TapRecorder(tap, s.serverAddress(), s.clientAddress()));
            Link link;
            try {
                link = LinkFactory.build(s.link(), s.seed(), START, observer);
            } catch (SpecException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            events.describeFlow(FLOW, START, "udp " + format(s.serverAddress()) + " " + format(s.clientAddress())
                    + " client " + format(s.clientAddress()));

            EventEngine engine = new EventEngine(START);
            SimNetwork network = new SimNetwork(link, s.serverAddress(), s.clientAddress());
            PacketIds ids = new PacketIds();
            Qdisc serverQdisc = Qdiscs.create(s.server().qdisc(), (p, t) -> network.transmit(Direction.DOWN, p, t),
                    s.server().timing(), streams.stream("server/qdisc"));
            Qdisc clientQdisc = Qdiscs.create(s.client().qdisc(), (p, t) -> network.transmit(Direction.UP, p, t),
                    s.client().timing(), streams.stream("client/qdisc"));

            // server: an endpoint serving /bytes/N with the real runtime's handlers
            RandomScope.Source serverTls = new RandomScope.Source(streams.stream("server/tls"));
            RandomScope.Source clientTls = new RandomScope.Source(streams.stream("client/tls"));
            Certificates.Identity id = Identity.get();
            ConnectionConfig serverConfig = connectionConfig(s, TlsConfig.server(SimScenario.ALPNS, TlsConfig.ALL_SUITES,
                    id.chain(), id.key()), s.server().sendPath().pacingLookahead())
                    .withKeyUpdateInterval(s.keyUpdateInterval()).withKeyLog(keys).withQlog(serverQlogs);
            ContentSource content = SyntheticContent.only();
            Map<String, Supplier<? extends ApplicationHandler>> handlers = new LinkedHashMap<>();
            handlers.put("h3", () -> new H3ServerHandler(content, r -> { }));
            handlers.put(HqServerHandler.ALPN, () -> new HqServerHandler(content, r -> { }));
            ServerEndpoint endpoint = new ServerEndpoint(serverConfig, from -> new AlpnSelectingHandler(handlers),
                    streams.stream("server/quic"), bytes(streams, "server/endpoint-key"), false, 16);
            EndpointConnections serverConnections = new EndpointConnections(endpoint);
            Host serverHost = new Host("server", serverConnections, s.server(), serverQdisc, ids, a -> FLOW,
                    streams.stream("server/host"), serverTls, START);

            // client: one connection downloading /bytes/N over h3 or hq-interop, bodies counted and discarded
            List<DownloadResult> results = new ArrayList<>();
            List<DownloadRequest> requests = new ArrayList<>();
            for (int i = 0; i < s.streams(); i++) {
                requests.add(DownloadRequest.of(URI.create("https://" + format(s.serverAddress()) + SyntheticContent.PREFIX
                        + s.transferBytes())));
            }
            Host[] clientHostRef = new Host[1];
            java.util.function.LongSupplier clientClock = () -> clientHostRef[0].clock();
            DownloadListener listener = new DownloadListener() {
                @Override
                public void onDownloadFinished(DownloadResult result) { }

                @Override
                public void onAllFinished(List<DownloadResult> all) {
                    results.addAll(all);
                }
            };
            ApplicationHandler clientApp = s.alpn().equals("h3")
                    ? new H3ClientHandler(requests, DISCARD, listener, clientClock)
                    : new HqClientHandler(requests, DISCARD, listener, clientClock);
            ConnectionConfig clientConfig = connectionConfig(s, TlsConfig.client(List.of(s.alpn()), s.ciphers(),
                    "localhost", null, false), s.client().sendPath().pacingLookahead());
            clientConfig = clientConfig.withAckElicitingThreshold(s.ackThreshold());
            if (clientQlogs != null) {
                clientConfig = clientConfig.withQlog(clientQlogs);
            }
            QuicConnection clientConn;
            scope.use(clientTls);
            try {
                clientConn = QuicConnection.client(clientConfig, clientApp, streams.stream("client/quic"),
                        new StatelessResetTokens(bytes(streams, "client/reset-key")), NO_ROUTING, START);
            } catch (QuicException e) {
                throw new IllegalStateException("the simulated client could not start: " + e.getMessage(), e);
            } finally {
                scope.clear();
            }
            ClientConnection clientConnections = new ClientConnection(clientConn, s.serverAddress(), START + s.timeout(),
                    clientClock);
            Host clientHost = new Host("client", clientConnections, s.client(), clientQdisc, ids, a -> FLOW,
                    streams.stream("client/host"), clientTls, START);
            clientHostRef[0] = clientHost;
            serverHost.timeCalls(timer);
            clientHost.timeCalls(timer);
            network.connect(serverHost, clientHost);

            engine.add(network);
            engine.add(serverQdisc);
            engine.add(clientQdisc);
            engine.add(serverHost);
            engine.add(clientHost);
            engine.run(START + s.timeout() + DRAIN, clientHost::stopped);
            long clientEnd = clientHost.stopped() ? clientHost.stoppedAt() : engine.now();
            boolean timedOut = !clientConn.isTerminated();
            if (timedOut) {
                scope.use(clientTls);
                try {
                    clientConn.close(0x0, "client timeout");
                } finally {
                    scope.clear();
                }
            }
            engine.run(engine.now() + DRAIN, () -> serverConnections.idle() && network.idle() && serverHost.drained());
            long end = engine.now();

            // outputs
            tap.close();
            events.close();
            serverQlogs.closeAll();
            if (clientQlogs != null) {
                clientQlogs.closeAll();
            }
            keys.write(files.keyLog());
            checkTlsRandomness(keys, clientTls);
            List<DownloadResult> finished = List.copyOf(results);
            ClientLog.write(files.clientLog(), new QuicClient.Outcome(finished, START, clientEnd,
                    clientConn.closeErrorCode(), clientConn.closeReason(), timedOut,
                    clientConnections.handshakeDone() < 0 ? -1 : clientConnections.handshakeDone() - START), START, clientEnd);

            Map<String, Long> counters = new LinkedHashMap<>();
            counters.put("link_down_drops", linkCounters.totalDrops(Direction.DOWN));
            counters.put("link_down_queue_full_drops", linkCounters.drops(Direction.DOWN, DropCause.QUEUE_FULL));
            counters.put("link_up_drops", linkCounters.totalDrops(Direction.UP));
            counters.putAll(serverHost.counters());
            counters.putAll(clientHost.counters());
            counters.put("engine_events", engine.events());
            long bytes = finished.stream().mapToLong(DownloadResult::bodyBytes).sum();
            boolean completed = !timedOut && finished.size() == s.streams() && finished.stream().allMatch(DownloadResult::succeeded);
            String outcome = timedOut ? "the client timed out after " + s.timeout() / 1_000_000_000.0 + " s of virtual time"
                    : completed ? "all " + finished.size() + " downloads completed"
                    : "the connection closed before the downloads completed: " + describeFailure(finished, clientConn);
            ScenarioJson.write(files.scenario(), s, START, end, clientEnd, completed, outcome, counters);
            RunResult analysis = s.analyze() ? RunSummary.analyze(files, s.serverAddress().getPort(),
                    serverQlogs.files().isEmpty() ? null : serverQlogs.files().getFirst()) : null;
            return new SimResult(files, completed, outcome, end - START, clientEnd - START, bytes,
                    goodput(finished), System.nanoTime() - wallStart, engine.events(), counters, analysis);
        } catch (IOException | RuntimeException e) {
            events.discard();
            if (tap != null) tap.discard();
            if (serverQlogs != null) serverQlogs.discard();
            if (clientQlogs != null) clientQlogs.discard();
            throw e;
        } finally {
            scope.clear();
        }
    }

    private static ConnectionConfig connectionConfig(SimScenario s, TlsConfig tls, long lookahead) {
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
    private static void checkTlsRandomness(KeyLogCollector keys, RandomScope.Source clientTls) {
        for (byte[] random : keys.clientRandoms()) {
            if (!clientTls.produced(random)) {
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

    private static byte[] bytes(RandomStreams streams, String name) {
        byte[] b = new byte[32];
        streams.stream(name).nextBytes(b);
        return b;
    }

    private static String format(java.net.InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    private static final LocalConnectionIds.Listener NO_ROUTING = new LocalConnectionIds.Listener() {
        @Override
        public void onIssued(byte[] cid) { }

        @Override
        public void onRetired(byte[] cid) { }
    };

    /** Bodies are counted by the download results and dropped, like {@code pacelab client} without -o. */
    private static final DownloadSink DISCARD = request -> new DownloadOutput() {
        @Override
        public void write(ByteBuffer data) {
            data.position(data.limit());
        }

        @Override
        public void commit() { }

        @Override
        public void abort() { }
    };

    /** The server's certificate: the same in every run (fixed key stream, times and serial). */
    private static final class Identity {
        private static final Certificates.Identity INSTANCE = Certificates.selfSigned(List.of("localhost", "10.77.1.1"),
                new SeededSecureRandom(new RandomStreams(0x9ACE1ABL).stream("certificate")),
                VirtualEpoch.EPOCH_NANOS / 1_000_000L - 86_400_000L, BigInteger.ONE);

        static Certificates.Identity get() {
            return INSTANCE;
        }
    }
}
