package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;

import io.netty.handler.codec.quic.Quic;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.quiche.QuicheClient;
import org.pacelab.peers.quiche.QuicheOptions;
import org.pacelab.peers.quiche.QuicheServer;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;

/** Acceptance 4, quiche through Netty: 10 MiB both ways (pacelab client → quiche server, quiche client → pacelab server). */
@Tag("interop")
class QuicheInteropTest {
    private static final String TARGET = "/bytes/" + Interop.TEN_MIB;

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
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o = Pacelab.download(server.localAddress(), alpn, List.of(TARGET), sink, Pacelab.Logs.NONE);
            assertTrue(o.allSucceeded(), "download failed: " + o);
            assertEquals(Interop.TEN_MIB, sink.lengths.get(TARGET));
            assertEquals(Interop.patternSha256(Interop.TEN_MIB), sink.sha256.get(TARGET));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h3", "hq-interop"})
    void quicheClientDownloadsFromPacelabServer(String alpn) throws Exception {
        try (QuicServer server = Pacelab.server(null, Pacelab.Logs.NONE)) {
            InetSocketAddress addr = server.localAddress();
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o = QuicheClient.download(addr, new ClientTls(alpn, "localhost", null, true),
                    List.of(new DownloadRequest("localhost:" + addr.getPort(), TARGET)), sink, QuicheOptions.defaults(),
                    Interop.TRANSFER_TIMEOUT_NANOS);
            assertTrue(o.allSucceeded(), "download failed: " + o);
            assertEquals(Interop.TEN_MIB, sink.lengths.get(TARGET));
            assertEquals(Interop.patternSha256(Interop.TEN_MIB), sink.sha256.get(TARGET));
        }
    }
}
