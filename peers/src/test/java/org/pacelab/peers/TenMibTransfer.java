package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;

import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;
import org.pacelab.quic.content.DownloadRequest;

/**
 * The 10 MiB transfer of the interop tests with peers that run in this JVM (Kwik, quiche through Netty), either way:
 * pacelab's client from the peer's server, or the peer's client from pacelab's server; the body is checked by length
 * and SHA-256 against pacelab's {@code /bytes/N} pattern.
 */
final class TenMibTransfer {
    static final String TARGET = "/bytes/" + Interop.TEN_MIB;

    /** A peer's client downloading {@code requests} from {@code server} into {@code sink}. */
    @FunctionalInterface
    interface PeerClient {
        QuicClient.Outcome download(InetSocketAddress server, ClientTls tls, List<DownloadRequest> requests, DigestSink sink)
                throws Exception;
    }

    private TenMibTransfer() {}

    /** pacelab's client downloads the 10 MiB target from the peer's server at {@code server}. */
    static void pacelabClientDownloadsFrom(InetSocketAddress server, String alpn) throws Exception {
        DigestSink sink = new DigestSink();
        QuicClient.Outcome o = Pacelab.download(server, alpn, List.of(TARGET), sink, Pacelab.Logs.NONE);
        assertReceived(o, sink);
    }

    /** The peer's client downloads the 10 MiB target from a pacelab server started for it. */
    static void peerClientDownloadsFromPacelab(String alpn, PeerClient client) throws Exception {
        try (QuicServer server = Pacelab.server(null, Pacelab.Logs.NONE)) {
            InetSocketAddress addr = server.localAddress();
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o = client.download(addr, new ClientTls(alpn, "localhost", null, true),
                    List.of(new DownloadRequest("localhost:" + addr.getPort(), TARGET)), sink);
            assertReceived(o, sink);
        }
    }

    static void assertReceived(QuicClient.Outcome o, DigestSink sink) {
        assertTrue(o.allSucceeded(), "download failed: " + o);
        assertEquals(Interop.TEN_MIB, sink.lengths.get(TARGET));
        assertEquals(Interop.patternSha256(Interop.TEN_MIB), sink.sha256.get(TARGET));
    }
}
