package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.kwik.KwikClient;
import org.pacelab.peers.kwik.KwikOptions;
import org.pacelab.peers.kwik.KwikServer;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;

/** Acceptance 4, Kwik (with Flupke for HTTP/3): 10 MiB both ways (pacelab client → Kwik server, Kwik client → pacelab server). */
@Tag("interop")
class KwikInteropTest {
    private static final String TARGET = "/bytes/" + Interop.TEN_MIB;

    @ParameterizedTest
    @ValueSource(strings = {"h3", "hq-interop"})
    void pacelabClientDownloadsFromKwikServer(String alpn) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        try (KwikServer server = KwikServer.start(new InetSocketAddress("127.0.0.1", 0), KwikOptions.defaults(), id,
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
    void kwikClientDownloadsFromPacelabServer(String alpn) throws Exception {
        try (QuicServer server = Pacelab.server(null, Pacelab.Logs.NONE)) {
            InetSocketAddress addr = server.localAddress();
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o = KwikClient.download(addr, new ClientTls(alpn, "localhost", null, true),
                    List.of(new DownloadRequest("localhost:" + addr.getPort(), TARGET)), sink, KwikOptions.defaults(),
                    Interop.TRANSFER_TIMEOUT_NANOS);
            assertTrue(o.allSucceeded(), "download failed: " + o);
            assertEquals(Interop.TEN_MIB, sink.lengths.get(TARGET));
            assertEquals(Interop.patternSha256(Interop.TEN_MIB), sink.sha256.get(TARGET));
        }
    }
}
