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
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.content.BytePattern;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.crypto.CipherSuite;
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
        ConnectionConfig c = ConnectionConfig.defaults(tls, CongestionConfig.DEFAULT);
        try {
            var q = org.pacelab.io.log.QlogDirectory.fromEnvironment(tls.serverName() == null ? "server" : "client");
            return q == null ? c : c.withQlog(q);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Issue 2, acceptance 2: 100 MiB from /bytes and a 10 MiB file, byte-identical, with AES and ChaCha20 only. */
    @ParameterizedTest
    @CsvSource({"aes", "chacha20"})
    void hundredMebibytesAndATenMebibyteFileArriveIntact(String cipher, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        var id = Certificates.selfSigned(List.of("localhost"));
        java.nio.file.Path root = java.nio.file.Files.createDirectories(tmp.resolve("www"));
        java.nio.file.Path out = tmp.resolve("downloads");
        byte[] file = new byte[10 << 20];
        new java.util.Random(5).nextBytes(file);
        java.nio.file.Files.write(root.resolve("ten.bin"), file);
        TlsConfig serverTls = TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(), id.key());
        List<CipherSuite> suites = cipher.equals("chacha20") ? List.of(CipherSuite.CHACHA20_POLY1305_SHA256)
                : List.of(CipherSuite.AES_128_GCM_SHA256, CipherSuite.AES_256_GCM_SHA384);
        TlsConfig clientTls = TlsConfig.client(List.of("h3"), suites, "localhost", null, false);
        long big = 100L << 20;
        try (QuicServer server = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), config(serverTls),
                org.pacelab.io.app.ServerContent.of(root), false, 8 << 20, new ParkWait(), r -> {})) {
            InetSocketAddress addr = server.localAddress();
            String authority = "localhost:" + addr.getPort();
            QuicClient.Outcome o = QuicClient.download(addr, config(clientTls),
                    List.of(new DownloadRequest(authority, "/bytes/" + big), new DownloadRequest(authority, "/ten.bin")),
                    new org.pacelab.io.app.FileDownloadSink(out), 300_000_000_000L, 8 << 20, new ParkWait());
            assertTrue(o.allSucceeded(), "download failed: " + o);
        }
        assertEquals(DigestSink.sha256(file), DigestSink.sha256(java.nio.file.Files.readAllBytes(out.resolve("ten.bin"))));
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        try (var in = java.nio.file.Files.newInputStream(out.resolve(String.valueOf(big)))) {
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        assertEquals(patternSha256(big), HexFormat.of().formatHex(md.digest()));
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

    /** The native send paths carry a transfer intact: sendmsg, sendmmsg batches, GSO buffers, recvmmsg with GRO. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--socket native",
            "--sendmmsg 8 --send hybrid",
            "--gso 16 --sendmmsg 4 --recv-batch 32 --gro on",
            "--gso 8 --gso-shrink-on-loss on --send park-tight"})
    void nativeSendPathsCarryTheBodyIntact(String options) throws Exception {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        String[] t = options.split(" ");
        for (int i = 0; i < t.length; i += 2) {
            m.put(t[i], t[i + 1]);
        }
        org.pacelab.io.send.SendConfig send = org.pacelab.io.send.SendConfig.fromOptions(m);
        var id = Certificates.selfSigned(List.of("localhost"));
        TlsConfig serverTls = TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(), id.key());
        TlsConfig clientTls = TlsConfig.client(List.of("h3"), TlsConfig.ALL_SUITES, "localhost", null, false);
        long size = 4L << 20;
        try (QuicServer server = QuicServer.start(new InetSocketAddress("127.0.0.1", 0), config(serverTls),
                SyntheticContent.only(), false, 8 << 20, send, r -> {})) {
            DigestSink sink = new DigestSink();
            InetSocketAddress addr = server.localAddress();
            QuicClient.Outcome o = QuicClient.download(addr, config(clientTls),
                    List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/" + size)), sink,
                    60_000_000_000L, 8 << 20, send);
            assertTrue(o.allSucceeded(), "download failed: " + o);
            assertEquals(patternSha256(size), sink.sha256.get("/bytes/" + size));
            java.util.Map<String, Long> counters = server.counters();
            assertTrue(counters.get("datagrams_sent") >= size / 1452, "server counters " + counters);
            if (send.gsoSegments() > 1) {
                assertTrue(counters.get("largest_gso_buffer") > 1, "GSO buffers were used: " + counters);
                assertTrue(counters.get("messages_sent") < counters.get("datagrams_sent"), "server counters " + counters);
            }
        }
    }
}
