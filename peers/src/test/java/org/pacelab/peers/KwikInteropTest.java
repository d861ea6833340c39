package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.kwik.KwikClient;
import org.pacelab.peers.kwik.KwikFeatures;
import org.pacelab.peers.kwik.KwikOptions;
import org.pacelab.peers.kwik.KwikServer;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;

/** Acceptance 4, Kwik (with Flupke for HTTP/3): 10 MiB both ways (pacelab client → Kwik server, Kwik client → pacelab server). */
@Tag("interop")
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class KwikInteropTest {
    @ParameterizedTest
    @ValueSource(strings = {"h3", "hq-interop"})
    void pacelabClientDownloadsFromKwikServer(String alpn, @TempDir Path dir) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        Path serverLog = dir.resolve("kwik-server.log");
        Path qlogs = Files.createDirectories(dir.resolve("qlog"));
        // what the Kwik server says it served, and why it stopped (CI once saw the hq-interop body reset with
        // INTERNAL_ERROR after 13,976 bytes: the server's write to its stream threw)
        List<org.pacelab.quic.content.ServedRequest> served = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        DigestSink sink = new DigestSink();
        QuicClient.Outcome o;
        try (KwikServer server = KwikServer.start(new InetSocketAddress("127.0.0.1", 0),
                KwikOptions.defaults().withLog(serverLog), id, SyntheticContent.only(), served::add)) {
            o = Pacelab.download(server.localAddress(), alpn, List.of(TenMibTransfer.TARGET), sink,
                    new Pacelab.Logs(null, qlogs));
        }
        if (!o.allSucceeded()) {
            fail("download failed: " + o + "\n" + alpn + "\nthe Kwik server served: " + served
                    + "\nthe Kwik server's log (info, warnings, errors):\n" + tail(serverLog)
                    + "\nthe pacelab client's qlog, last records:\n" + qlogTail(qlogs));
        }
        TenMibTransfer.assertReceived(o, sink);
        assertTrue(Files.readAllLines(serverLog).getFirst().startsWith("pacelab kwik-server: listening on /127.0.0.1:"),
                "the Kwik server's log (KwikOptions.log) starts with its header");
    }

    /**
     * More requests on one connection than the Kwik server's 100 concurrent streams, as the interop runner's
     * multiplexing asks (1999): the server must give the client new streams (MAX_STREAMS) as requests finish. Over
     * hq-interop it gave none until its handler read each request stream to its FIN (issue 16: 100 of 1999 files,
     * then both ends idle).
     */
    @ParameterizedTest
    @ValueSource(strings = {"h3", "hq-interop"})
    void kwikServerGrantsStreamsBeyondItsConcurrentLimit(String alpn) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        List<String> targets = IntStream.range(0, 250).mapToObj(i -> "/bytes/32?n=" + i).toList();
        try (KwikServer server = KwikServer.start(new InetSocketAddress("127.0.0.1", 0), KwikOptions.defaults(), id,
                SyntheticContent.only(), r -> {})) {
            DigestSink sink = new DigestSink();
            var o = Pacelab.download(server.localAddress(), alpn, targets, sink, Pacelab.Logs.NONE);
            long downloaded = o.results().stream().filter(r -> r.error() == null).count();
            assertEquals(targets.size(), downloaded, "requests answered, of " + targets.size());
            assertTrue(o.allSucceeded(), "close: " + o.closeReason());
            assertEquals(targets.size(), sink.lengths.size());
            targets.forEach(t -> assertEquals(32L, sink.lengths.get(t), t));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h3", "hq-interop"})
    void kwikClientDownloadsFromPacelabServer(String alpn) throws Exception {
        TenMibTransfer.peerClientDownloadsFromPacelab(alpn, (addr, tls, requests, sink) -> KwikClient.download(addr, tls,
                requests, sink, KwikOptions.defaults(), Interop.TRANSFER_TIMEOUT_NANOS));
    }

    /** The Kwik client's key log (QuicClientConnection.Builder.secrets) holds the 1-RTT secrets of the connection. */
    @Test
    void kwikClientWritesItsKeyLog(@TempDir Path dir) throws Exception {
        Path keys = dir.resolve("keys.log");
        try (QuicServer server = Pacelab.server(null, Pacelab.Logs.NONE)) {
            InetSocketAddress addr = server.localAddress();
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o = KwikClient.download(addr, new ClientTls("h3", "localhost", null, true),
                    List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/1000")), sink,
                    KwikOptions.defaults().withKeyLog(keys), Interop.TRANSFER_TIMEOUT_NANOS);
            assertTrue(o.allSucceeded(), "download failed: " + o);
        }
        List<String> lines = Files.readAllLines(keys);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("CLIENT_TRAFFIC_SECRET_0 ")), "key log: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("SERVER_TRAFFIC_SECRET_0 ")), "key log: " + lines);
    }

    /**
     * The Kwik client's own log (KwikOptions.log, for diagnosis: Kwik writes no qlog) gets a block per connection,
     * appended, with the packets Kwik sent and received.
     */
    @Test
    void kwikClientAppendsItsLogPerConnection(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("kwik.log");
        try (QuicServer server = Pacelab.server(null, Pacelab.Logs.NONE)) {
            InetSocketAddress addr = server.localAddress();
            for (int i = 0; i < 2; i++) {
                QuicClient.Outcome o = KwikClient.download(addr, new ClientTls("hq-interop", "localhost", null, true),
                        List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/1000")), new DigestSink(),
                        KwikOptions.defaults().withLog(log), Interop.TRANSFER_TIMEOUT_NANOS);
                assertTrue(o.allSucceeded(), "download failed: " + o);
            }
        }
        List<String> lines = Files.readAllLines(log);
        assertEquals(2, lines.stream().filter(l -> l.startsWith("pacelab kwik-client: connection to 127.0.0.1:")).count(),
                "one header per connection");
        // Kwik's packet lines: "TIME -> Packet I|0|L|1200|2 ..." sent, "TIME <- (1) Packet I|0|L|..." received
        assertTrue(lines.stream().anyMatch(l -> l.contains(" -> Packet I|0|")), "no Initial sent in the log");
        assertTrue(lines.stream().anyMatch(l -> l.matches(".* <- \\(\\d+\\) Packet H\\|.*")), "no Handshake packet received");
        assertTrue(lines.stream().anyMatch(l -> l.contains("Packet A|")), "no 1-RTT packet in the log");
    }

    /**
     * Kwik with the interop runner's retry, v2, chacha20, keyupdate, resumption and zerortt options, client and server:
     * the Kwik client's log shows the Retry, the switch to v2 and the server's key phase change (ChaCha20 offered alone),
     * and a third connection's early data accepted with the ticket the second wrote to its file.
     */
    @Test
    void kwikInteropFeaturesBetweenKwikClientAndServer(@TempDir Path dir) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        Path ticket = dir.resolve("session.ticket");
        Path keys = dir.resolve("keys.log");
        try (KwikServer server = KwikServer.start(new InetSocketAddress("127.0.0.1", 0), KwikOptions.defaults(),
                KwikFeatures.server(true, true), id, SyntheticContent.only(), r -> {})) {
            InetSocketAddress addr = server.localAddress();
            ClientTls tls = new ClientTls("hq-interop", "localhost", null, true);
            Path log1 = dir.resolve("first.log");
            QuicClient.Outcome first = KwikClient.download(addr, tls, List.of(new DownloadRequest("localhost:" + addr.getPort(),
                    "/bytes/1000000")), new DigestSink(), KwikOptions.defaults().withLog(log1),
                    KwikFeatures.client(List.of("TLS_CHACHA20_POLY1305_SHA256"), true, true, null, false),
                    Interop.TRANSFER_TIMEOUT_NANOS);
            assertTrue(first.allSucceeded(), "first: " + first);
            String l1 = Files.readString(log1);
            assertTrue(l1.contains("Parsing RetryPacket"), "no Retry");
            assertTrue(l1.contains("changing version from v1 to v2"), "no switch to v2");
            assertTrue(l1.contains("possible key update in progress"), "the server's packets did not change key phase");

            Path logTicket = dir.resolve("ticket.log");
            QuicClient.Outcome withTicket = null;
            // Kwik 0.10.9's server, retry on, sometimes answers the Initial that carries its Retry token with INVALID_TOKEN
            // (CI, load 13, 2026-12-04; 3 of 300 connections here under load, 2026-12-05). A race inside Kwik:
            // ServerConnectionCandidate starts the connection's thread, which sends the Retry, before it registers the
            // connection under the Retry's connection ID; an Initial arriving in between makes a second connection with
            // its own token. This test is about pacelab's Kwik options, not Kwik's server under load, so that one
            // outcome is tried once more; any other failure, or a second one, fails the test.
            for (int attempt = 0; attempt < 2; attempt++) {
                withTicket = KwikClient.download(addr, tls, List.of(new DownloadRequest("localhost:"
                        + addr.getPort(), "/bytes/10")), new DigestSink(), KwikOptions.defaults().withKeyLog(keys)
                        .withLog(logTicket), KwikFeatures.client(List.of(), false, false, ticket, false),
                        Interop.TRANSFER_TIMEOUT_NANOS);
                if (withTicket.allSucceeded() || withTicket.closeReason() == null
                        || !withTicket.closeReason().contains("transport error 11")) {
                    break;
                }
            }
            assertTrue(withTicket.allSucceeded(), "second: " + withTicket + "\n" + tail(logTicket));
            assertTrue(Files.size(ticket) > 0, "no ticket written");

            Path log2 = dir.resolve("second.log");
            QuicClient.Outcome second = KwikClient.download(addr, tls, List.of(new DownloadRequest("localhost:" + addr.getPort(),
                    "/bytes/10"), new DownloadRequest("localhost:" + addr.getPort(), "/bytes/20")), new DigestSink(),
                    KwikOptions.defaults().withLog(log2).withKeyLog(keys), KwikFeatures.client(List.of(), false, false, ticket, true),
                    Interop.TRANSFER_TIMEOUT_NANOS);
            assertTrue(second.allSucceeded(), "second: " + second);
            // Kwik empties its secrets file per connection; the key log keeps both connections' secrets
            assertEquals(2, Files.readAllLines(keys).stream().filter(l -> l.startsWith("CLIENT_TRAFFIC_SECRET_0 ")).count(),
                    "1-RTT secrets of both connections in the key log");
            String l2 = Files.readString(log2);
            assertTrue(l2.contains("early data on Stream"), "no early data sent");
            assertTrue(l2.contains("Server has accepted early data"), "early data not accepted");
        }
    }

    /** The last records of the qlog files in {@code dir}, each cut to 300 characters, for a failure's message. */
    private static String qlogTail(Path dir) throws java.io.IOException {
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                b.append(f.getFileName()).append(" (").append(lines.size()).append(" records):\n");
                for (String l : lines.subList(Math.max(0, lines.size() - 25), lines.size())) {
                    b.append(l.length() > 300 ? l.substring(0, 300) + "…" : l).append('\n');
                }
            }
        }
        return b.isEmpty() ? "(no qlog)" : b.toString();
    }

    /** The last lines of a Kwik log, for a failure's message. */
    private static String tail(Path log) throws java.io.IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
