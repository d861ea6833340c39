package org.pacelab.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.pacelab.io.app.FileDownloadSink;
import org.pacelab.io.app.ServerContent;
import org.pacelab.io.log.KeyLogFile;
import org.pacelab.io.log.QlogDirectory;
import org.pacelab.io.runtime.ClientLog;
import org.pacelab.io.runtime.JitWarmup;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.PreferredAddressConfig;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.tls.SessionTicket;
import org.pacelab.quic.tls.SessionTickets;
import org.pacelab.quic.tls.TlsConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code pacelab endpoint}: the QUIC Interop Runner endpoint interface (what its {@code run_endpoint.sh}
 * runs). Reads ROLE, TESTCASE, REQUESTS, SSLKEYLOGFILE and QLOGDIR from the environment, serves {@code /www},
 * downloads into {@code /downloads}, takes certificates from {@code /certs}; exits 127 for test cases it
 * does not support.
 */
@Command(name = "endpoint", mixinStandardHelpOptions = true,
        description = {"QUIC Interop Runner endpoint: ROLE=client|server, TESTCASE, REQUESTS (space-separated URLs),",
                "SSLKEYLOGFILE, QLOGDIR from the environment. Exit 127 = unsupported test case."})
public final class EndpointCommand implements Callable<Integer> {
    /**
     * The test names this endpoint implements: what the runner puts in TESTCASE (its test cases' {@code testname}),
     * which for several cases is not the case's name — handshakeloss and handshakecorruption send "multiconnect";
     * transferloss, blackhole, multiplexing, the rebinding cases, ipv6, amplificationlimit, goodput and crosstraffic
     * send "transfer"; longrtt sends "handshake"; the keyupdate server gets "transfer".
     */
    static final List<String> SUPPORTED = List.of("handshake", "transfer", "multiconnect", "retry", "chacha20", "keyupdate",
            "http3", "resumption", "zerortt", "ecn", "v2", "connectionmigration");
    /** Session tickets a server keeps (each used at most once). */
    private static final int TICKETS = 4096;
    static final int UNSUPPORTED = 127;
    /** The UDP socket buffer both roles ask for. */
    private static final int UDP_BUFFER_BYTES = 32 << 20;
    /** The body of the server's warm-up download per protocol ({@link #warmUp}). */
    static final long WARMUP_BYTES = 256 << 10;
    /**
     * The server's warm-up ends after this long even if unfinished (a starved host): {@code pacelab interop} gives a
     * server 60 s, JVM start included, to bind its port.
     */
    static final long WARMUP_LIMIT_NANOS = 20_000_000_000L;

    @Option(names = "--www", paramLabel = "DIR", description = "Served directory (default: $WWW or /www).")
    Path www;

    @Option(names = "--downloads", paramLabel = "DIR", description = "Download directory (default: $DOWNLOADS or /downloads).")
    Path downloads;

    @Option(names = "--certs", paramLabel = "DIR", description = "Directory with cert.pem and priv.key (default: $CERTS or /certs).")
    Path certs;

    @Option(names = "--listen", paramLabel = "ADDR:PORT", converter = SocketAddressConverter.class,
            description = "Server address (default: [::]:443, or $PORT on all addresses).")
    InetSocketAddress listen;

    @Option(names = "--alpn", paramLabel = "PROTO",
            description = "Client: the application protocol, hq-interop or h3 (default: the runner's, h3 for http3, else hq-interop).")
    String alpn;

    /**
     * The server's preferred address for connectionmigration (RFC 9000 §9.6): the runner's network gives a server a second
     * address; here it is named, with the address clients reach it at when a relay forwards it.
     */
    @Mixin
    PreferredAddressOptions preferredAddress = new PreferredAddressOptions();

    Map<String, String> env = System.getenv();

    @Override
    public Integer call() throws Exception {
        String role = env.getOrDefault("ROLE", "").toLowerCase(Locale.ROOT);
        String testcase = env.getOrDefault("TESTCASE", "").toLowerCase(Locale.ROOT);
        if (!SUPPORTED.contains(testcase)) {
            System.err.println("pacelab endpoint: test case '" + testcase + "' is not supported (supported: "
                    + String.join(", ", SUPPORTED) + ")");
            return UNSUPPORTED;
        }
        if (alpn != null && !alpn.equals("h3") && !alpn.equals("hq-interop")) {
            System.err.println("pacelab endpoint: --alpn '" + alpn + "' is not h3 or hq-interop");
            return 2;
        }
        return switch (role) {
            case "server" -> {
                if (testcase.equals("connectionmigration") && !preferredAddress.given()) {
                    System.err.println("pacelab endpoint: test case 'connectionmigration' needs --preferred-address ADDR:PORT, "
                            + "the second address the server listens on and offers to the client (RFC 9000 §9.6)");
                    yield UNSUPPORTED;
                }
                QuicServer s;
                try {
                    s = startServer(testcase);
                } catch (IllegalArgumentException e) {
                    System.err.println("pacelab endpoint: " + e.getMessage());
                    yield 2;
                }
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // exiting
                    }
                }));
                s.await();
                yield s.failure() == null ? 0 : 1;
            }
            case "client" -> runClient(testcase);
            default -> {
                System.err.println("pacelab endpoint: ROLE must be client or server, not '" + role + "'");
                yield 2;
            }
        };
    }

    private Path dir(Path option, String var, String fallback) {
        return option != null ? option : Path.of(env.getOrDefault(var, fallback));
    }

    private ConnectionConfig config(TlsConfig tls, String role, String testcase) throws IOException {
        ConnectionConfig c = ConnectionConfig.defaults(tls, CongestionConfig.DEFAULT);
        // checked by the rule of pacelab's --keylog and --qlog-dir (PathChecks), before any connection
        Path keylog;
        Path qlog;
        try {
            keylog = PathChecks.outputFile("SSLKEYLOGFILE", env.get("SSLKEYLOGFILE"));
            qlog = PathChecks.outputDirectory("QLOGDIR", env.get("QLOGDIR"));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (keylog != null) {
            c = c.withKeyLog(new KeyLogFile(keylog));
        }
        if (qlog != null) {
            c = c.withQlog(new QlogDirectory(qlog, role, true));
        }
        if (testcase.equals("ecn")) {
            // mark ECT(0) and report the peer's marks; the native socket reads them (sendConfig)
            c = c.withEcn(true);
        }
        if (testcase.equals("v2")) {
            // RFC 9368 §4: the server chooses v2 when the client's version_information offers it; the client starts
            // with v1 and offers both, v2 first (ConnectionConfig.clientOriginalVersion): servers that take the
            // client's first compatible version (aioquic's, picoquic's) kept v1 when it offered v1 first
            c = c.withVersions(List.of(QuicVersion.V2, QuicVersion.V1));
        }
        if (testcase.equals("keyupdate") && role.equals("client")) {
            // the runner checks that packets travel in both key phases: update early in the transfer
            c = c.withKeyUpdateInterval(100);
        }
        return c;
    }

    /** The default send path; for the ECN test the native socket, which reads the ECN field of arriving datagrams. */
    private static SendConfig sendConfig(String testcase) {
        return testcase.equals("ecn") ? SendConfig.fromOptions(Map.of(SendConfig.SOCKET, "native")) : SendConfig.DEFAULT;
    }

    QuicServer startServer(String testcase) throws IOException {
        Path certDir = dir(certs, "CERTS", "/certs");
        Certificates.Identity id = Certificates.load(certDir.resolve("cert.pem"), certDir.resolve("priv.key"));
        // session tickets after every handshake (RFC 8446 §4.6.1), so clients can resume; for zerortt they allow 0-RTT
        TlsConfig tls = TlsConfig.server(List.of("hq-interop", "h3"), TlsConfig.ALL_SUITES, id.chain(), id.key())
                .withTickets(new SessionTickets(new java.security.SecureRandom(), TICKETS, testcase.equals("zerortt")));
        InetSocketAddress addr = listen != null ? listen
                : new InetSocketAddress(InetAddress.getByName("::"), Integer.parseInt(env.getOrDefault("PORT", "443")));
        PreferredAddressConfig offered = preferredAddress.offer(addr);
        ConnectionConfig config = config(tls, "server", testcase).withPreferredAddress(offered);
        // the warm-up's client has nowhere to move to
        for (JitWarmup.Result w : warmUp(config.withPreferredAddress(null), sendConfig(testcase))) {
            // a report, on standard output as `pacelab emulate` reports its warm-up: standard error keeps a bad
            // address's one sentence
            System.out.println("pacelab endpoint: " + w.describe());
        }
        return QuicServer.start(addr, offered == null ? null : preferredAddress.preferred, config,
                ServerContent.of(dir(www, "WWW", "/www")), testcase.equals("retry"),
                UDP_BUFFER_BYTES, sendConfig(testcase), r -> {});
    }

    /**
     * Before the server binds its port (which is when the runner starts the client): a loopback download in this JVM
     * over each of the server's protocols ({@link JitWarmup}, with the server's certificates and settings, its qlog
     * written to nowhere, no key log), so the first client's handshake meets loaded, initialised code. A cold server
     * answered the first ClientHello 0.5–1.3 s after it arrived (issue 16, amplificationlimit with gtlsclient, whose
     * first RTT sample that became: with its datagrams 2–7 dropped its backed-off PTO did not reach the server again
     * before its 10 s handshake timeout).
     */
    static List<JitWarmup.Result> warmUp(ConnectionConfig server, SendConfig send) throws IOException {
        List<JitWarmup.Result> results = new ArrayList<>();
        long end = System.nanoTime() + WARMUP_LIMIT_NANOS;
        for (String alpn : server.tls().applicationProtocols()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                break;
            }
            results.add(JitWarmup.run(server, alpn, server.qlog() instanceof QlogDirectory, send, UDP_BUFFER_BYTES,
                    WARMUP_BYTES, left));
        }
        return results;
    }

    int runClient(String testcase) throws Exception {
        String requests = env.getOrDefault("REQUESTS", "").trim();
        if (requests.isEmpty()) {
            System.err.println("pacelab endpoint: REQUESTS is empty; it lists the URLs to download, separated by spaces");
            return 2;
        }
        List<DownloadRequest> reqs = new ArrayList<>();
        URI first = null;
        for (String u : requests.split("\\s+")) {
            URI uri = new URI(u);
            reqs.add(DownloadRequest.of(uri));
            first = first == null ? uri : first;
        }
        String protocol = alpn != null ? alpn : testcase.equals("http3") ? "h3" : "hq-interop";
        List<CipherSuite> suites = testcase.equals("chacha20") ? List.of(CipherSuite.CHACHA20_POLY1305_SHA256) : TlsConfig.ALL_SUITES;
        String host = first.getHost().startsWith("[") ? first.getHost().substring(1, first.getHost().length() - 1) : first.getHost();
        TlsConfig tls = TlsConfig.client(List.of(protocol), suites, host, null, false);
        Path out = dir(downloads, "DOWNLOADS", "/downloads");
        Files.createDirectories(out);
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(host), first.getPort() < 0 ? 443 : first.getPort());
        // multiconnect: one connection per request, one after the other (the runner's handshakeloss/handshakecorruption);
        // resumption: the first request, then the others on a second connection resuming the first one's session;
        // zerortt: the same, the second connection sending its requests as 0-RTT data
        boolean resuming = testcase.equals("resumption") || testcase.equals("zerortt");
        List<List<DownloadRequest>> connections = testcase.equals("multiconnect") ? reqs.stream().map(List::of).toList()
                : resuming && reqs.size() > 1 ? List.of(reqs.subList(0, 1), reqs.subList(1, reqs.size()))
                : List.of(reqs);
        SessionTicket ticket = null;
        for (int i = 0; i < connections.size(); i++) {
            TlsConfig t = resuming && i > 0 ? tls.withResumption(ticket, testcase.equals("zerortt")) : tls;
            QuicClient.Outcome o = QuicClient.download(server, config(t, "client", testcase), connections.get(i),
                    new FileDownloadSink(out), 180_000_000_000L, UDP_BUFFER_BYTES, sendConfig(testcase));
            for (DownloadResult r : o.results()) {
                System.err.println(ClientLog.describe(r));
            }
            if (testcase.equals("zerortt") && i > 0) {
                System.err.println("pacelab endpoint: " + (o.earlyData() ? "the server accepted the 0-RTT data"
                        : ticket.earlyData() ? "the server rejected the 0-RTT data; it went again in 1-RTT packets"
                        : "the server's ticket does not allow 0-RTT data; the requests went in 1-RTT packets"));
            }
            if (!o.allSucceeded()) {
                return 1;
            }
            if (resuming && i == 0 && connections.size() > 1) {
                ticket = o.sessionTicket();
                if (ticket == null) {
                    System.err.println("pacelab endpoint: the server issued no session ticket on the first connection, so the "
                            + "second cannot resume");
                    return 1;
                }
            }
        }
        return 0;
    }
}
