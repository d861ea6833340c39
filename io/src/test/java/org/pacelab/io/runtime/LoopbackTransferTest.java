package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.cc.NewRenoController;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.BytePattern;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.pacing.NoPacer;
import org.pacelab.quic.pacing.PacingRate;
import org.pacelab.quic.tls.TlsConfig;

class LoopbackTransferTest {

    static String patternSha256(long n) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        long off = 0;
        while (off < n) {
            int len = (int) Math.min(b.capacity(), n - off);
            b.clear();
            BytePattern.fill(off, b, len);
            b.flip();
            md.update(b);
            off += len;
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static ConnectionConfig config(TlsConfig tls) {
        return ConnectionConfig.defaults(tls, mds -> new NewRenoController(mds, null), NoPacer::new,
                (cc, rtt, inflight) -> new PacingRate(0, 0, cc.congestionWindow(), rtt.smoothedRtt(), inflight == 0));
    }

    @ParameterizedTest
    @CsvSource({"h3,aes", "hq-interop,aes", "h3,chacha20"})
    void downloadsSyntheticBodyOverLoopback(String alpn, String cipher) throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        TlsConfig serverTls = TlsConfig.server(List.of("h3", "hq-interop"), TlsConfig.ALL_SUITES, id.chain(), id.key());
        List<CipherSuite> suites = cipher.equals("chacha20") ? List.of(CipherSuite.CHACHA20_POLY1305_SHA256) : TlsConfig.ALL_SUITES;
        TlsConfig clientTls = TlsConfig.client(List.of(alpn), suites, "localhost", null, false);
        long size = 10L << 20;
        try (QuicServer server = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), config(serverTls),
                SyntheticContent.only(), false, 8 << 20, new ParkWait(), r -> {})) {
            DigestSink sink = new DigestSink();
            InetSocketAddress addr = server.localAddress();
            QuicClient.Outcome o = QuicClient.download(addr, config(clientTls),
                    List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/" + size)), sink,
                    60_000_000_000L, 8 << 20, new ParkWait());
            assertTrue(o.allSucceeded(), "download failed: " + o);
            assertEquals(size, sink.lengths.get("/bytes/" + size));
            assertEquals(patternSha256(size), sink.sha256.get("/bytes/" + size));
        }
    }
}
