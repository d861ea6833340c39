package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.handler.codec.quic.Quic;
import io.netty.handler.codec.quic.QuicCongestionControlAlgorithm;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.quiche.QuicheClient;
import org.pacelab.peers.quiche.QuicheFeatures;
import org.pacelab.peers.quiche.QuicheOptions;
import org.pacelab.peers.quiche.QuicheServer;
import org.pacelab.quic.content.SyntheticContent;

/** Acceptance 4, quiche through Netty: 10 MiB both ways (pacelab client → quiche server, quiche client → pacelab server). */
@Tag("interop")
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class QuicheInteropTest {
    @BeforeEach
    void quicheLoads() {
        Interop.require(Quic.isAvailable(), "Netty's native quiche does not load here: " + Quic.unavailabilityCause());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h3", "hq-interop"})
    void pacelabClientDownloadsFromQuicheServer(String alpn) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        try (QuicheServer server = QuicheServer.start(new InetSocketAddress("127.0.0.1", 0), QuicheOptions.defaults(), id,
                SyntheticContent.only(), r -> {})) {
            TenMibTransfer.pacelabClientDownloadsFrom(server.localAddress(), alpn);
        }
    }

    /** BBR without HyStart, GSO through epoll, qlog and key log: the transfer works and both logs are written. */
    @Test
    void quicheServerOptionsTakeEffect(@TempDir Path dir) throws Exception {
        Interop.require(Epoll.isAvailable() && EpollDatagramChannel.isSegmentedDatagramPacketSupported(),
                "Netty's epoll transport with UDP GSO is not available here");
        var id = Certificates.selfSigned(List.of("localhost"));
        QuicheOptions options = QuicheOptions.defaults().withCongestion(QuicCongestionControlAlgorithm.BBR, false)
                .withGso(8).withQlogDir(dir.resolve("qlog")).withKeyLog(dir.resolve("keys.log"));
        try (QuicheServer server = QuicheServer.start(new InetSocketAddress("127.0.0.1", 0), options, id,
                SyntheticContent.only(), r -> {})) {
            TenMibTransfer.pacelabClientDownloadsFrom(server.localAddress(), "h3");
        }
        List<String> keys = Files.readAllLines(dir.resolve("keys.log"));
        assertTrue(keys.stream().anyMatch(l -> l.matches("SERVER_TRAFFIC_SECRET_0 [0-9a-f]{64} [0-9a-f]+")), "key log: " + keys);
        List<Path> qlogs;
        try (var s = Files.list(dir.resolve("qlog"))) {
            qlogs = s.toList();
        }
        assertEquals(1, qlogs.size(), "one qlog per connection: " + qlogs);
        String first = Files.readAllLines(qlogs.get(0)).get(0);
        JsonNode header = new ObjectMapper().readTree(first.replace("\u001e", ""));
        // quiche writes the newer qlog draft schema (serialization_format, quic-12 events), not qlog 0.3.
        assertEquals("JSON-SEQ", header.path("serialization_format").asText(), first);
        assertEquals("server", header.path("trace").path("vantage_point").path("type").asText(), first);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h3", "hq-interop"})
    void quicheClientDownloadsFromPacelabServer(String alpn) throws Exception {
        TenMibTransfer.peerClientDownloadsFromPacelab(alpn, (addr, tls, requests, sink) -> QuicheClient.download(addr, tls,
                requests, sink, QuicheOptions.defaults(), Interop.TRANSFER_TIMEOUT_NANOS));
    }

    /**
     * quiche's resumption and 0-RTT through Netty, server with a Retry: the second connection of one TLS context
     * resumes the first's session and sends its requests in 0-RTT packets (the client's qlog of that connection).
     */
    @Test
    void quicheClientSendsZeroRttInItsSecondConnection(@TempDir Path dir) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        QuicheOptions client = QuicheOptions.defaults().withQlogDir(dir.resolve("qlog"));
        try (QuicheServer server = QuicheServer.start(new InetSocketAddress("127.0.0.1", 0), QuicheOptions.defaults(),
                QuicheFeatures.server(true, true), id, SyntheticContent.only(), r -> {})) {
            InetSocketAddress addr = server.localAddress();
            ClientTls tls = new ClientTls("hq-interop", "localhost", null, true);
            var ssl = QuicheClient.tlsContext(tls, client, true);
            for (int i = 0; i < 2; i++) {
                var o = QuicheClient.download(addr, tls, ssl, List.of(new org.pacelab.quic.content.DownloadRequest(
                        "localhost:" + addr.getPort(), "/bytes/" + (100 + i))), new DigestSink(), client,
                        Interop.TRANSFER_TIMEOUT_NANOS, true);
                assertTrue(o.allSucceeded(), "connection " + (i + 1) + ": " + o);
            }
        }
        List<Path> qlogs;
        try (var s = Files.list(dir.resolve("qlog"))) {
            qlogs = s.toList();
        }
        assertEquals(2, qlogs.size(), "one qlog per connection: " + qlogs);
        long withZeroRtt = 0;
        for (Path q : qlogs) {
            if (Files.readString(q).contains("\"packet_type\":\"0RTT\"")) {
                withZeroRtt++;
            }
        }
        assertEquals(1, withZeroRtt, "connections that sent 0-RTT packets");
    }
}
