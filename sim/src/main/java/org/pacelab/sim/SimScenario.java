package org.pacelab.sim;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.Presets;
import org.pacelab.net.spec.SpecException;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.tls.TlsConfig;
import org.pacelab.sim.host.HostConfig;

/**
 * One simulated run: the link, the transfer, both endpoints' QUIC settings and hosts, the seed and where the
 * outputs go. {@link SimOptions#parse} builds one from the same option names as {@code pacelab server / client /
 * emulate}; the runner may also build one directly.
 *
 * @param link              the single-path link (a preset with overrides); not used when {@code dc} is set
 * @param seed              the one seed every random draw of the run derives from
 * @param transferBytes     size of each download ({@code /bytes/N})
 * @param streams           downloads requested concurrently over the connection
 * @param alpn              {@code h3} or {@code hq-interop}
 * @param congestion        congestion control and pacing of both endpoints (the server's is the one studied)
 * @param ciphers           TLS cipher suites offered by the client, in preference order
 * @param maxUdpPayload     largest UDP payload either endpoint sends
 * @param idleTimeout       idle timeout of both endpoints, ns
 * @param keyUpdateInterval the server initiates a key update after this many packets (0 = never)
 * @param server            the server's host
 * @param client            the client's host
 * @param outputDir         where the run's files go
 * @param snaplen           bytes of each packet kept in the tap (0 = all)
 * @param timeout           virtual time after which the client gives up, ns
 * @param serverAddress     the server's IPv4 address and port (tap, qlog, event log)
 * @param clientAddress     the client's IPv4 address and port
 * @param analyze           run the analyzer afterwards (summary.json, packets.csv, timeline.csv)
 * @param clientQlog        also write the client's qlog (the analyzer reads only the server's)
 * @param ackThreshold      ack-eliciting packets the client receives before it acknowledges at once (RFC 9000
 *                          §13.2.2 recommends 2; stacks that decimate acknowledgements use more)
 * @param dc                a dual-connectivity link (two downlink paths, splitter, reordering receiver, one uplink)
 *                          instead of {@code link}, or null
 * @param flows             one entry per client/server pair sharing the link, how its packets use the paths (dc, a or
 *                          b; on a single-path link only dc): pair i has flow id i + 1 and the client address
 *                          {@link #clientAddress(int)}
 * @param duration          virtual time each client downloads before it closes its connection, ns; 0 = until its
 *                          downloads of {@code transferBytes} have arrived
 * @param tap               write the tap ({@code tap.pcapng}); a long multi-flow run measured from its event log
 *                          may do without
 * @param serverQlog        write the server's qlogs ({@code qlog/server-*.sqlog})
 * @param serverPerFlow     one server host per client/server pair (its own endpoint, event loop, socket and qdisc,
 *                          as the netns mode runs one server process per flow) instead of one server host serving
 *                          every pair (the relay mode's one server process)
 * @param flowStarts        when each pair's client starts, ns after the run's start, one per entry of {@code flows}
 *                          (its download of {@code duration} and its timeout count from there), or empty: every
 *                          client starts at once, as the relay and netns runners start them
 */
public record SimScenario(LinkSpec link, long seed, long transferBytes, int streams, String alpn,
                          CongestionConfig congestion, List<CipherSuite> ciphers, int maxUdpPayload, long idleTimeout,
                          long keyUpdateInterval, HostConfig server, HostConfig client, Path outputDir, int snaplen,
                          long timeout, InetSocketAddress serverAddress, InetSocketAddress clientAddress,
                          boolean analyze, boolean clientQlog, int ackThreshold, DcSpec dc, List<DcFlowMode> flows,
                          long duration, boolean tap, boolean serverQlog, boolean serverPerFlow,
                          List<Long> flowStarts) {
    /** Client/server pairs at most (the clients' ports are consecutive). */
    public static final int MAX_FLOWS = 64;
    public static final List<String> ALPNS = List.of("h3", "hq-interop");
    /** The addresses of pacelab's namespace lab, so simulated and netns captures look alike. */
    public static final InetSocketAddress DEFAULT_SERVER = new InetSocketAddress("10.77.1.1", 4433);
    public static final InetSocketAddress DEFAULT_CLIENT = new InetSocketAddress("10.77.2.1", 50000);

    public SimScenario {
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(congestion, "congestion");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(outputDir, "outputDir");
        if (transferBytes < 0) {
            throw new IllegalArgumentException("--size: must be >= 0 bytes, got " + transferBytes);
        }
        if (streams < 1 || streams > 1000) {
            throw new IllegalArgumentException("--streams: " + streams + " is out of range; valid: 1 to 1000");
        }
        alpn = alpn == null ? "" : alpn.toLowerCase(Locale.ROOT);
        if (!ALPNS.contains(alpn)) {
            throw new IllegalArgumentException("--alpn: '" + alpn + "' is not supported; valid: " + String.join(", ", ALPNS));
        }
        if (ciphers == null || ciphers.isEmpty()) {
            throw new IllegalArgumentException("--ciphers: at least one cipher suite is needed; valid: aes128, aes256, chacha20");
        }
        ciphers = List.copyOf(ciphers);
        if (maxUdpPayload < 1200 || maxUdpPayload > 65527) {
            throw new IllegalArgumentException("--max-udp-payload: " + maxUdpPayload + " is out of range; valid: 1200 to 65527");
        }
        if (idleTimeout < 0 || keyUpdateInterval < 0 || snaplen < 0) {
            throw new IllegalArgumentException("--idle-timeout, --key-update and --snaplen must not be negative");
        }
        if (timeout <= 0) {
            throw new IllegalArgumentException("--timeout: must be positive, e.g. 300s");
        }
        if (ackThreshold < 1 || ackThreshold > 1000) {
            throw new IllegalArgumentException("--ack-threshold: " + ackThreshold + " is out of range; valid: 1 to 1000 packets");
        }
        for (InetSocketAddress a : new InetSocketAddress[] {serverAddress, clientAddress}) {
            if (a == null || !(a.getAddress() instanceof Inet4Address)) {
                throw new IllegalArgumentException("the simulated endpoints need IPv4 addresses, got " + a);
            }
        }
        flows = flows == null ? List.of(DcFlowMode.DUAL) : List.copyOf(flows);
        if (flows.isEmpty() || flows.size() > MAX_FLOWS) {
            throw new IllegalArgumentException("--flows: " + flows.size() + " client/server pairs is out of range; valid: 1 to "
                    + MAX_FLOWS);
        }
        if (dc == null && flows.stream().anyMatch(f -> f != DcFlowMode.DUAL)) {
            throw new IllegalArgumentException("--flows: a and b (one path of two) need a dual-connectivity link (--dc); on a "
                    + "single-path link every flow is dc");
        }
        if (clientAddress.getPort() + flows.size() - 1 > 65535) {
            throw new IllegalArgumentException("the clients' ports " + clientAddress.getPort() + " to "
                    + (clientAddress.getPort() + flows.size() - 1) + " go past 65535");
        }
        if (analyze && !tap && dc == null && flows.size() == 1) {
            throw new IllegalArgumentException("--analyze reads the tap; it needs --tap on (or --analyze off)");
        }
        if (duration < 0) {
            throw new IllegalArgumentException("--duration: must not be negative, e.g. 20s");
        }
        flowStarts = flowStarts == null ? List.of() : List.copyOf(flowStarts);
        if (!flowStarts.isEmpty() && flowStarts.size() != flows.size()) {
            throw new IllegalArgumentException("--flow-starts: " + flowStarts.size() + " start offsets for " + flows.size()
                    + " flows; give one per entry of --flows, in its order (e.g. 0s,2s,2s for dc,a,b)");
        }
        if (flowStarts.stream().anyMatch(t -> t < 0)) {
            throw new IllegalArgumentException("--flow-starts: a start offset is negative; valid: 0 or later (e.g. 0s,2s,2s), "
                    + "counted from the run's start");
        }
        if (duration > 0 && duration >= timeout) {
            throw new IllegalArgumentException("--duration: " + duration / 1e9 + " s is not shorter than --timeout ("
                    + timeout / 1e9 + " s)");
        }
    }

    /** The address of pair {@code i}'s client: the client address with its port plus i. */
    public InetSocketAddress clientAddress(int i) {
        return i == 0 ? clientAddress : new InetSocketAddress(clientAddress.getAddress(), clientAddress.getPort() + i);
    }

    /** How long after the run's start pair {@code i}'s client starts, ns (0 without {@link #flowStarts()}). */
    public long flowStart(int i) {
        return flowStarts.isEmpty() ? 0 : flowStarts.get(i);
    }

    /** The latest client start, ns after the run's start. */
    public long lastFlowStart() {
        return flowStarts.stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** Each pair's client starts {@code starts.get(i)} ns after the run's start (empty: all at once). */
    public SimScenario withFlowStarts(List<Long> starts) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, starts);
    }

    /** Whether several pairs share the link or the link has two paths: measured from the event log (JFI, paths). */
    public boolean multiFlowOrDc() {
        return dc != null || flows.size() > 1;
    }

    /**
     * The defaults: quic-steps, seed 1, 100 MiB over h3 in one stream, CUBIC with the interval pacer, the io
     * runtime's host on both ends, analysis on.
     */
    public static SimScenario defaults(Path outputDir) {
        return defaults(outputDir, HostConfig.defaults());
    }

    /** The defaults with {@code host} as both endpoints' host. */
    public static SimScenario defaults(Path outputDir, HostConfig host) {
        try {
            return new SimScenario(Presets.get("quic-steps"), 1, 100L << 20, 1, "h3", CongestionConfig.DEFAULT,
                    TlsConfig.ALL_SUITES, 1452, 30_000_000_000L, 0, host, host,
                    outputDir, 0, 300_000_000_000L, DEFAULT_SERVER, DEFAULT_CLIENT, true, false, 2, null, List.of(DcFlowMode.DUAL), 0, true, true, false, List.of());
        } catch (SpecException e) {
            throw new IllegalStateException("the quic-steps preset is missing", e);
        }
    }

    /** A single-path link (replaces a dual-connectivity one). */
    public SimScenario withLink(LinkSpec l) {
        return new SimScenario(l, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, null, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    /** A dual-connectivity link instead of the single-path one (null: back to {@link #link()}). */
    public SimScenario withDc(DcSpec d) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, d, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    /** Which of the large outputs to write: the tap and the server's qlogs. */
    public SimScenario withOutputs(boolean t, boolean q) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, t, q, serverPerFlow, flowStarts);
    }

    /** The client/server pairs (one mode each) and how long each downloads (0 = its transfer's size). */
    public SimScenario withFlows(List<DcFlowMode> f, long d) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, f, d, tap, serverQlog, serverPerFlow, flowStarts);
    }

    public SimScenario withSeed(long s) {
        return new SimScenario(link, s, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    public SimScenario withTransfer(long bytes, int n) {
        return new SimScenario(link, seed, bytes, n, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    public SimScenario withCongestion(CongestionConfig c) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, c, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    public SimScenario withHosts(HostConfig s, HostConfig c) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, s, c, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    public SimScenario withOutputDir(Path dir) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, dir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    public SimScenario withAnalyze(boolean a) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, a, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    public SimScenario withClientQlog(boolean q) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, q, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }

    /** One server host per pair (true) or one server host serving every pair (false, the default). */
    public SimScenario withServerPerFlow(boolean perFlow) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, timeout, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, perFlow, flowStarts);
    }

    public SimScenario withTimeout(long t) {
        return new SimScenario(link, seed, transferBytes, streams, alpn, congestion, ciphers, maxUdpPayload, idleTimeout,
                keyUpdateInterval, server, client, outputDir, snaplen, t, serverAddress, clientAddress, analyze, clientQlog, ackThreshold, dc, flows, duration, tap, serverQlog, serverPerFlow, flowStarts);
    }
}
