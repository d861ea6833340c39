package org.pacelab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.io.log.KeyLogFile;
import org.pacelab.io.log.QlogDirectory;
import org.pacelab.io.runtime.JitWarmup;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.sys.JitCompilers;
import org.pacelab.quic.cc.ControllerConfig;
import org.pacelab.quic.cc.SlowStartConfig;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.pacing.PacingConfig;
import org.pacelab.quic.stream.StreamLimits;
import org.pacelab.quic.tls.KeyLogSink;
import org.pacelab.quic.tls.TlsConfig;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Options shared by {@code pacelab server} and {@code pacelab client}: TLS ciphers, transport limits, logs,
 * congestion control and pacing, and the send strategy (the same names as in scenario files:
 * {@link CongestionConfig#OPTION_NAMES}, {@link SendConfig#OPTION_NAMES}).
 */
final class TransportOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--ciphers", split = ",", paramLabel = "SUITE",
            description = "TLS 1.3 cipher suites in preference order: aes128, aes256, chacha20 (default: all three).")
    List<String> ciphers = List.of("aes128", "aes256", "chacha20");

    @Option(names = "--max-udp-payload", paramLabel = "BYTES", description = "Largest UDP payload sent (default: ${DEFAULT-VALUE}).")
    int maxUdpPayload = 1452;

    @Option(names = "--idle-timeout", paramLabel = "TIME", converter = UnitConverters.Duration.class,
            description = "Idle timeout (default: 30s).")
    long idleTimeout = 30_000_000_000L;

    /** The warm-up stops after this long even if SIZE has not arrived (a low --max-pacing-rate). */
    static final long WARMUP_LIMIT_NANOS = 30_000_000_000L;

    @Option(names = "--warmup", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = {"Before the real work, transfer this much over loopback between a server and a client in "
                    + "this JVM with these congestion, pacing and send settings, so the measured transfer starts with "
                    + "compiled code (e.g. 200MiB; at most 30 s; default: 0, no warm-up)."})
    long warmup;

    @Option(names = "--udp-buffer", paramLabel = "SIZE", converter = UnitConverters.Size.class,
            description = "UDP socket buffer size requested (default: 32mib; the kernel caps it at net.core.rmem_max/wmem_max).")
    long udpBuffer = 32L << 20;

    @Option(names = "--qlog-dir", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR", description = "Write one qlog per connection here (default: $QLOGDIR).")
    Path qlogDir;

    @Option(names = "--keylog", converter = PathChecks.OutputFile.class, paramLabel = "FILE", description = "Append TLS secrets to this NSS key log (default: $SSLKEYLOGFILE).")
    Path keylog;

    @Option(names = "--key-update", paramLabel = "PACKETS",
            description = "Initiate a 1-RTT key update after this many 1-RTT packets sent and received (default: 0, never).")
    long keyUpdate;

    @Option(names = "--ecn", description = "ECN (RFC 9000 §13.4): mark packets ECT(0), validate the path, report the peer's "
            + "marks in ACK frames; needs the native socket, chosen when --socket is not given.")
    boolean ecn;

    @Option(names = "--max-ack-ratio", paramLabel = "N", description = "ACK frequency (draft-ietf-quic-ack-frequency): after "
            + "slow start ask a peer that supports it for one ACK per up to N packets (a quarter of the window, at least 2); "
            + "0 = never ask, the peer acknowledges every second packet as RFC 9000 says (default: ${DEFAULT-VALUE}).")
    int maxAckRatio = ConnectionConfig.DEFAULT_MAX_ACK_RATIO;

    @Option(names = SendConfig.SEND, paramLabel = "STRATEGY",
            description = "How the host waits for the pacer's release times: park, park-tight, hybrid, spin (default: park).")
    String send;
    @Option(names = SendConfig.HYBRID_SPIN, paramLabel = "TIME",
            description = "How long before a release time hybrid stops parking and spins (default: 60us).")
    String hybridSpin;
    @Option(names = SendConfig.SOCKET, paramLabel = "KIND",
            description = "Socket: native (Linux calls via FFM) or jdk (DatagramChannel: one call per datagram, none of "
                    + "the batching options below) (default: native).")
    String socket;
    @Option(names = SendConfig.SENDMMSG, paramLabel = "N", description = "Messages per sendmmsg call (default: 1, one sendmsg each).")
    String sendmmsg;
    @Option(names = SendConfig.GSO, paramLabel = "N",
            description = "Datagrams per UDP GSO buffer: auto (as many as one UDP datagram holds, so what the pacer releases "
                    + "at once leaves in one call) or 1 (no GSO) to 64 (default: auto).")
    String gso;
    @Option(names = SendConfig.GSO_SHRINK_ON_LOSS,
            description = "Cut the GSO buffer by a quarter whenever the loss rate rose by 0.1 %% (as quiche's server).")
    boolean gsoShrinkOnLoss;
    @Option(names = SendConfig.TXTIME,
            description = "Give every message its intended send time (SO_TXTIME); needs an fq or etf qdisc, checked at start.")
    boolean txtime;
    @Option(names = SendConfig.TXTIME_CLOCK, paramLabel = "CLOCK", description = "Clock of the send times: monotonic (fq), tai (etf) (default: monotonic).")
    String txtimeClock;
    @Option(names = SendConfig.PACING_LOOKAHEAD, paramLabel = "TIME",
            description = "With --txtime: hand packets over this long before their send time (default: 5ms).")
    String pacingLookahead;
    @Option(names = SendConfig.PACED_GSO,
            description = "The kernel paces GSO segments at the pacing rate (QUIC Steps kernel patch; needs --gso and --txtime).")
    boolean pacedGso;
    @Option(names = SendConfig.RECV_BATCH, paramLabel = "N", description = "Datagrams per recvmmsg call (default: 64; 1 = recvmsg).")
    String recvBatch;
    @Option(names = SendConfig.GRO, negatable = true,
            description = "Let the kernel coalesce received datagrams (UDP_GRO) (default: on; --no-gro turns it off).")
    Boolean gro;
    @Option(names = SendConfig.REALTIME, description = "Run the event loop thread SCHED_FIFO (root): other processes do not delay sends.")
    boolean realtime;
    @Option(names = SendConfig.REALTIME_PRIORITY, paramLabel = "N", description = "SCHED_FIFO priority with --realtime, 1-99 (default: 10, the emulator's).")
    String realtimePriority;

    @Option(names = ControllerConfig.CC, paramLabel = "ALG", description = "Congestion controller: newreno, cubic, bbr (default: cubic).")
    String cc;
    // the defaults named here are SlowStartConfig.defaultRule's (TransportOptionsHelpTest checks them)
    @Option(names = SlowStartConfig.SLOW_START, paramLabel = "RULE", description = "How newreno and cubic leave slow start: "
            + "standard, hystart++ (RFC 9406), hystart (Linux: ACK train and delay), search (draft-chung-ccwg-search), "
            + "onset (the RTT rising within the round), onset-bdp (onset, leaving with the rate measured then x min RTT), "
            + "onset-bdp-queue (onset-bdp keeping half the queue it saw, the estimate as floor of the first loss); "
            + "bbr takes standard (the draft's Startup) and onset "
            + "(default per --cc: cubic onset-bdp-queue, newreno hystart++, bbr onset).")
    String slowStart;
    @Option(names = SlowStartConfig.HYSTART, paramLabel = "on|off", description = "The older switch: on is --slow-start "
            + "hystart++, off is --slow-start standard.")
    String hystart;
    @Option(names = SlowStartConfig.HYSTART_L, paramLabel = "L", description = "HyStart++ L: auto, inf or segments (default: auto).")
    String hystartL;
    @Option(names = SlowStartConfig.HYSTART_CSS_ROUNDS, paramLabel = "N",
            description = "HyStart++ rounds of Conservative Slow Start before leaving slow start (default: 5, RFC 9406).")
    String hystartCssRounds;
    @Option(names = SlowStartConfig.HYSTART_DETECT, paramLabel = "SIGNALS",
            description = "Linux HyStart's signals: train, delay, both (default: both).")
    String hystartDetect;
    @Option(names = SlowStartConfig.SEARCH_THRESHOLD, paramLabel = "X",
            description = "SEARCH's exit threshold, above 0 and below 1 (default: 0.26, draft-chung-ccwg-search-09).")
    String searchThreshold;
    @Option(names = SlowStartConfig.ONSET_DELAY, paramLabel = "TIME",
            description = "The onset rules' floor of the queueing delay that ends slow start, 0.1ms to 100ms (default: 1ms).")
    String onsetDelay;
    @Option(names = ControllerConfig.ROLLBACK, paramLabel = "MODE", description = "CUBIC spurious-loss undo: off, rfc9438, quiche (default: off).")
    String rollback;
    @Option(names = ControllerConfig.FAST_CONVERGENCE, paramLabel = "on|off", description = "CUBIC fast convergence (default: on).")
    String fastConvergence;
    @Option(names = PacingConfig.PACER, paramLabel = "PACER", description = "Pacer: none, leaky-bucket, interval, token-bucket (default: interval).")
    String pacer;
    @Option(names = PacingConfig.PACING_GAIN_SS, paramLabel = "GAIN", description = "Pacing gain in slow start (default: 2.0).")
    String gainSs;
    @Option(names = PacingConfig.PACING_GAIN_CA, paramLabel = "GAIN", description = "Pacing gain after slow start (default: 1.25).")
    String gainCa;
    @Option(names = PacingConfig.QUANTUM, paramLabel = "SIZE", description = "Bytes allowed back-to-back: auto or a size (default: auto).")
    String quantum;
    @Option(names = PacingConfig.INITIAL_BURST, paramLabel = "PACKETS", description = "Packets sent unpaced at the start (default: 10).")
    String initialBurst;
    @Option(names = PacingConfig.MIN_PACING_RATE, paramLabel = "RATE", description = "Floor of the pacing rate, e.g. 1mbit (default: none).")
    String minPacingRate;
    @Option(names = PacingConfig.MAX_PACING_RATE, paramLabel = "RATE", description = "Cap of the pacing rate (default: none).")
    String maxPacingRate;
    @Option(names = PacingConfig.UNPACED_ABOVE, paramLabel = "RATE", description = "Do not pace above this rate (default: always pace).")
    String unpacedAbove;

    /** The congestion and pacing options given, by option name (as scenario files name them). */
    Map<String, String> congestionOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, ControllerConfig.CC, cc);
        put(m, SlowStartConfig.SLOW_START, slowStart);
        put(m, SlowStartConfig.HYSTART, hystart);
        put(m, SlowStartConfig.HYSTART_L, hystartL);
        put(m, SlowStartConfig.HYSTART_CSS_ROUNDS, hystartCssRounds);
        put(m, SlowStartConfig.HYSTART_DETECT, hystartDetect);
        put(m, SlowStartConfig.SEARCH_THRESHOLD, searchThreshold);
        put(m, SlowStartConfig.ONSET_DELAY, onsetDelay);
        put(m, ControllerConfig.ROLLBACK, rollback);
        put(m, ControllerConfig.FAST_CONVERGENCE, fastConvergence);
        put(m, PacingConfig.PACER, pacer);
        put(m, PacingConfig.PACING_GAIN_SS, gainSs);
        put(m, PacingConfig.PACING_GAIN_CA, gainCa);
        put(m, PacingConfig.QUANTUM, quantum);
        put(m, PacingConfig.INITIAL_BURST, initialBurst);
        put(m, PacingConfig.MIN_PACING_RATE, minPacingRate);
        put(m, PacingConfig.MAX_PACING_RATE, maxPacingRate);
        put(m, PacingConfig.UNPACED_ABOVE, unpacedAbove);
        return m;
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (v != null) {
            m.put(k, v);
        }
    }

    /** The send options given, by option name (as scenario files name them); switches given are "on". */
    Map<String, String> sendOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, SendConfig.SEND, send);
        put(m, SendConfig.HYBRID_SPIN, hybridSpin);
        // reading the ECN field of arriving datagrams needs the native socket
        put(m, SendConfig.SOCKET, socket == null && ecn ? "native" : socket);
        put(m, SendConfig.SENDMMSG, sendmmsg);
        put(m, SendConfig.GSO, gso);
        put(m, SendConfig.GSO_SHRINK_ON_LOSS, gsoShrinkOnLoss ? "on" : null);
        put(m, SendConfig.TXTIME, txtime ? "on" : null);
        put(m, SendConfig.TXTIME_CLOCK, txtimeClock);
        put(m, SendConfig.PACING_LOOKAHEAD, pacingLookahead);
        put(m, SendConfig.PACED_GSO, pacedGso ? "on" : null);
        put(m, SendConfig.RECV_BATCH, recvBatch);
        put(m, SendConfig.GRO, gro == null ? null : gro ? "on" : "off");
        put(m, SendConfig.REALTIME, realtime ? "on" : null);
        put(m, SendConfig.REALTIME_PRIORITY, realtimePriority);
        return m;
    }

    /**
     * Checks every option that is validated beyond picocli's parsing (congestion, pacing, send strategy, ciphers);
     * a bad value becomes a {@link ParameterException} (one sentence, exit code 2).
     */
    void validate() {
        try {
            cipherSuites();
            congestionConfig();
            sendConfig().validateFor(maxUdpPayload);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }

    /** The UDP socket buffer to ask for, in bytes. */
    int udpBufferBytes() {
        return (int) Math.min(Integer.MAX_VALUE, udpBuffer);
    }

    /**
     * Runs a server's JIT warm-up when {@code --warmup} asks for one (with the server's own settings) and prints what
     * it did; qlog records are written to nowhere when the server writes qlog.
     */
    void warmUpServer(ConnectionConfig server) throws IOException {
        if (warmup > 0) {
            warmUp("pacelab server", server, server.qlog() instanceof QlogDirectory);
        }
    }

    /**
     * Runs a client's JIT warm-up when {@code --warmup} asks for one: against a server in this JVM with these
     * congestion settings and a self-signed certificate. Returns whether it ran.
     */
    boolean warmUpClient(String alpn) throws IOException {
        if (warmup <= 0) {
            return false;
        }
        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        warmUp("pacelab client", ConnectionConfig.defaults(TlsConfig.server(List.of(alpn), cipherSuites(), id.chain(),
                id.key()), congestionConfig()).withMaxUdpPayloadSize(maxUdpPayload), false);
        return true;
    }

    private void warmUp(String command, ConnectionConfig serverSide, boolean qlog) throws IOException {
        JitWarmup.Result w = JitWarmup.run(serverSide, qlog, sendConfig(), udpBufferBytes(), warmup, WARMUP_LIMIT_NANOS);
        // what the warm-up queued for C2 is compiled before the measured transfer, not during its slow start
        long settle = JitCompilers.awaitQuiet(System.nanoTime() + JitCompilers.LIMIT_NANOS);
        System.err.println(command + ": " + w.describe() + String.format(Locale.ROOT,
                ", then %d ms until the JIT compilers were quiet", settle / 1_000_000));
    }

    List<CipherSuite> cipherSuites() {
        List<CipherSuite> out = new ArrayList<>();
        for (String c : ciphers) {
            out.add(switch (c.trim().toLowerCase(Locale.ROOT)) {
                case "aes128", "aes-128-gcm", "tls_aes_128_gcm_sha256" -> CipherSuite.AES_128_GCM_SHA256;
                case "aes256", "aes-256-gcm", "tls_aes_256_gcm_sha384" -> CipherSuite.AES_256_GCM_SHA384;
                case "chacha20", "chacha20-poly1305", "tls_chacha20_poly1305_sha256" -> CipherSuite.CHACHA20_POLY1305_SHA256;
                default -> throw new IllegalArgumentException("--ciphers: '" + c + "' is not a cipher suite; valid: aes128, aes256, chacha20");
            });
        }
        return out;
    }

    CongestionConfig congestionConfig() {
        return CongestionConfig.fromOptions(congestionOptions());
    }

    SendConfig sendConfig() {
        return SendConfig.fromOptions(sendOptions());
    }

    /** The key log: --keylog, else SSLKEYLOGFILE, checked by the same rule (PathChecks: its directory must exist). */
    KeyLogSink keyLog() throws IOException {
        Path file;
        try {
            file = keylog != null ? keylog : PathChecks.outputFileFromEnvironment("SSLKEYLOGFILE");
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        try {
            return file != null ? new KeyLogFile(file) : KeyLogSink.NONE;
        } catch (java.nio.file.FileSystemException e) {
            throw new UserError((keylog != null ? "--keylog " : "SSLKEYLOGFILE ") + "cannot be written: "
                    + FailureReporter.fileProblem(e));
        }
    }

    /**
     * The qlog directory: --qlog-dir, else QLOGDIR, checked by the same rule (PathChecks: an existing directory must be
     * writable, a missing one creatable) as the endpoint and quiche commands check QLOGDIR.
     */
    QlogDirectory qlog(String role) throws IOException {
        Path dir;
        try {
            dir = qlogDir != null ? qlogDir : PathChecks.outputDirectoryFromEnvironment("QLOGDIR");
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        try {
            return dir != null ? new QlogDirectory(dir, role, true) : null;
        } catch (java.nio.file.FileSystemException e) {
            throw new UserError((qlogDir != null ? "--qlog-dir " : "QLOGDIR ") + "cannot be created: "
                    + FailureReporter.fileProblem(e));
        }
    }

    /** The connection settings these options describe. */
    ConnectionConfig connectionConfig(TlsConfig tls, String role) throws IOException {
        if (maxAckRatio < 0) {
            throw new UserError("--max-ack-ratio " + maxAckRatio + " is negative; valid: 0 (do not ask the peer for fewer "
                    + "ACKs) or a number of packets per ACK");
        }
        ConnectionConfig c = ConnectionConfig.defaults(tls, congestionConfig())
                .withMaxUdpPayloadSize(maxUdpPayload)
                .withIdleTimeout(idleTimeout)
                .withKeyUpdateInterval(keyUpdate)
                .withEcn(ecn)
                .withMaxAckRatio(maxAckRatio)
                .withKeyLog(keyLog())
                .withStreams(StreamLimits.defaults());
        QlogDirectory q = qlog(role);
        return q == null ? c : c.withQlog(q);
    }
}
