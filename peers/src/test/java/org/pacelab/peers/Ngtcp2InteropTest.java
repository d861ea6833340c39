package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;

/**
 * Acceptance 3 with Debian's ngtcp2 (GnuTLS build) over HTTP/3: gtlsclient downloads 10 MiB from pacelab's
 * server, pacelab's client downloads 10 MiB from gtlsserver, and 50 concurrent streams in one connection each
 * way; every body SHA-256 identical.
 */
@Tag("interop")
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class Ngtcp2InteropTest {
    private static final int STREAMS = 50;

    @TempDir
    Path dir;
    private Path gtlsclient;
    private Path gtlsserver;
    private Path openssl;

    @BeforeEach
    void peersInstalled() {
        gtlsclient = Interop.requireTool("gtlsclient", "ngtcp2-client");
        gtlsserver = Interop.requireTool("gtlsserver", "ngtcp2-server");
        openssl = Interop.requireTool("openssl", "openssl");
    }

    @Test
    void gtlsclientDownloadsTenMibFromPacelab() throws Exception {
        Map<String, String> expected = Map.of(Long.toString(Interop.TEN_MIB), Interop.patternSha256(Interop.TEN_MIB));
        gtlsclientDownloadsFromPacelab(List.of("/bytes/" + Interop.TEN_MIB), expected);
    }

    @Test
    void gtlsclientDownloadsFiftyConcurrentStreamsFromPacelab() throws Exception {
        Map<String, String> expected = new LinkedHashMap<>();
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            long size = 100_000 + 7_919L * i;
            targets.add("/bytes/" + size);
            expected.put(Long.toString(size), Interop.patternSha256(size));
        }
        gtlsclientDownloadsFromPacelab(targets, expected);
    }

    @Test
    void pacelabDownloadsTenMibFromGtlsserver() throws Exception {
        pacelabDownloadsFromGtlsserver(Map.of("file.bin", (int) Interop.TEN_MIB));
    }

    @Test
    void pacelabDownloadsFiftyConcurrentStreamsFromGtlsserver() throws Exception {
        Map<String, Integer> files = new LinkedHashMap<>();
        for (int i = 0; i < STREAMS; i++) {
            files.put(String.format("f%02d.bin", i), 100_000 + 7_919 * i);
        }
        pacelabDownloadsFromGtlsserver(files);
    }

    /** Runs gtlsclient against an in-process pacelab server; {@code expected} maps saved file names to SHA-256. */
    private void gtlsclientDownloadsFromPacelab(List<String> targets, Map<String, String> expected) throws Exception {
        Path downloads = Files.createDirectories(dir.resolve("downloads"));
        try (QuicServer server = Pacelab.server(null, Pacelab.Logs.NONE); PeerProcesses procs = new PeerProcesses()) {
            int port = server.localAddress().getPort();
            List<String> cmd = new ArrayList<>(List.of(gtlsclient.toString(), "-q", "--exit-on-all-streams-close",
                    "--download", downloads.toString(), "--max-data=1G", "--max-stream-data-bidi-local=1G",
                    "127.0.0.1", Integer.toString(port)));
            targets.forEach(t -> cmd.add("https://127.0.0.1:" + port + t));
            PeerProcesses.Result r = procs.run(120, dir.resolve("gtlsclient.log"), Map.of(), cmd.toArray(String[]::new));
            assertEquals(0, r.exitCode(), "gtlsclient failed: " + r.output());
        }
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Path f = downloads.resolve(e.getKey());
            assertTrue(Files.isRegularFile(f), "gtlsclient did not save " + e.getKey());
            assertEquals(e.getValue(), Interop.sha256(f), "SHA-256 of " + e.getKey());
        }
    }

    /** Serves random files from gtlsserver and downloads them all over one pacelab connection. */
    private void pacelabDownloadsFromGtlsserver(Map<String, Integer> files) throws Exception {
        Path www = Files.createDirectories(dir.resolve("www"));
        Random random = new Random(42);
        Map<String, String> expected = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> f : files.entrySet()) {
            byte[] content = new byte[f.getValue()];
            random.nextBytes(content);
            Path p = www.resolve(f.getKey());
            Files.write(p, content);
            expected.put("/" + f.getKey(), Interop.sha256(p));
        }
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        // GnuTLS does not read the JDK's PKCS#8 encoding of EC keys (no curve inside the key), so openssl makes them.
        PeerProcesses.Result made;
        try (PeerProcesses procs = new PeerProcesses()) {
            made = procs.run(60, dir.resolve("openssl.log"), Map.of(), openssl.toString(), "req", "-x509", "-newkey", "ec",
                    "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.toString(), "-out", cert.toString(),
                    "-days", "1", "-subj", "/CN=localhost");
        }
        assertEquals(0, made.exitCode(), "openssl could not make a certificate: " + made.output());
        int port = Interop.freeUdpPort();
        Path log = dir.resolve("gtlsserver.log");
        try (PeerProcesses procs = new PeerProcesses()) {
            Process server = procs.start(log, Map.of(), gtlsserver.toString(), "-q", "-d", www.toString(),
                    "127.0.0.1", Integer.toString(port), key.toString(), cert.toString());
            assertTrue(PeerProcesses.awaitUdpBound(port, 10_000) && server.isAlive(),
                    "gtlsserver did not bind port " + port + ": " + PeerProcesses.tail(log));
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o = Pacelab.download(new InetSocketAddress("127.0.0.1", port), "h3",
                    List.copyOf(expected.keySet()), sink, Pacelab.Logs.NONE);
            assertTrue(o.allSucceeded(), "download failed: " + o + "\ngtlsserver: " + PeerProcesses.tail(log));
            assertEquals(files.size(), o.results().size());
            for (Map.Entry<String, String> e : expected.entrySet()) {
                assertEquals(e.getValue(), sink.sha256.get(e.getKey()), "SHA-256 of " + e.getKey());
            }
        }
    }
}
