package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.runtime.QuicServer;

/**
 * The two directions every third-party peer is tested in, with SHA-256 compared for every body: pacelab's client
 * downloading files the peer's server serves, and the peer's client downloading {@code /bytes/N} from pacelab's
 * server.
 */
final class ThirdPartyInterop {
    static final int STREAMS = 50;

    private ThirdPartyInterop() {}

    /** How a peer's server is started. */
    @FunctionalInterface
    interface ServerCommand {
        List<String> command(int port, Path www, Path cert, Path key);
    }

    /** How a peer's client is started: the URLs (https://127.0.0.1:PORT/bytes/N) and where it saves the bodies. */
    @FunctionalInterface
    interface ClientCommand {
        List<String> command(int port, List<String> urls, Path out);
    }

    /** Where a peer's client saved the body of {@code /bytes/N}. */
    @FunctionalInterface
    interface SavedAs {
        Path file(Path out, String target);
    }

    /** One 10 MiB file. */
    static Map<String, Integer> tenMib() {
        return Map.of("file.bin", (int) Interop.TEN_MIB);
    }

    /** 50 files of different sizes (about 100 to 490 kB), downloaded concurrently. */
    static Map<String, Integer> fiftyFiles() {
        Map<String, Integer> files = new LinkedHashMap<>();
        for (int i = 0; i < STREAMS; i++) {
            files.put(String.format("f%02d.bin", i), 100_000 + 7_919 * i);
        }
        return files;
    }

    /** 10 MiB of /bytes. */
    static List<String> tenMibTarget() {
        return List.of("/bytes/" + Interop.TEN_MIB);
    }

    /** 50 /bytes targets of different sizes. */
    static List<String> fiftyTargets() {
        List<String> t = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            t.add("/bytes/" + (100_000 + 7_919L * i));
        }
        return t;
    }

    /** An EC certificate and key made by openssl (PEM, the SEC1 key form every C stack reads). */
    static Path[] certificate(Path dir, PeerProcesses procs) throws Exception {
        Path openssl = Interop.requireTool("openssl", "openssl");
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        PeerProcesses.Result made = procs.run(60, dir.resolve("openssl.log"), Map.of(), openssl.toString(), "req", "-x509", "-newkey",
                "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.toString(), "-out", cert.toString(),
                "-days", "1", "-subj", "/CN=localhost");
        assertEquals(0, made.exitCode(), "openssl could not make a certificate: " + made.output());
        return new Path[] {cert, key};
    }

    /** Serves random files from the peer's server and downloads them all over one pacelab connection. */
    static void pacelabDownloadsFromServer(Path dir, String name, ServerCommand server, Map<String, String> env, String alpn,
                                           Map<String, Integer> files) throws Exception {
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
        try (PeerProcesses procs = new PeerProcesses()) {
            Path[] pki = certificate(dir, procs);
            int port = Interop.freeUdpPort();
            Path log = dir.resolve(name + "-server.log");
            Process p = procs.start(log, env, server.command(port, www, pki[0], pki[1]).toArray(String[]::new));
            assertTrue(PeerProcesses.awaitUdpBound(port, 30_000) && p.isAlive(), name + " did not bind port " + port + ": "
                    + PeerProcesses.tail(log));
            DigestSink sink = new DigestSink();
            QuicClient.Outcome o = Pacelab.download(new InetSocketAddress("127.0.0.1", port), alpn, List.copyOf(expected.keySet()),
                    sink, Pacelab.Logs.NONE);
            assertTrue(o.allSucceeded(), "download failed: " + o + "\n" + name + ": " + PeerProcesses.tail(log));
            assertEquals(files.size(), o.results().size());
            for (Map.Entry<String, String> e : expected.entrySet()) {
                assertEquals(e.getValue(), sink.sha256.get(e.getKey()), "SHA-256 of " + e.getKey());
            }
        }
    }

    /** Runs the peer's client against an in-process pacelab server and checks every saved body. */
    static void clientDownloadsFromPacelab(Path dir, String name, ClientCommand client, Map<String, String> env, SavedAs saved,
                                           List<String> targets) throws Exception {
        Path out = Files.createDirectories(dir.resolve("downloads"));
        try (QuicServer server = Pacelab.server(null, Pacelab.Logs.NONE); PeerProcesses procs = new PeerProcesses()) {
            int port = server.localAddress().getPort();
            List<String> urls = targets.stream().map(t -> "https://127.0.0.1:" + port + t).toList();
            Path log = dir.resolve(name + "-client.log");
            PeerProcesses.Result r = procs.run(180, log, env, client.command(port, urls, out).toArray(String[]::new));
            assertEquals(0, r.exitCode(), name + " failed: " + r.output());
        }
        for (String t : targets) {
            long size = Long.parseLong(t.substring(t.lastIndexOf('/') + 1));
            Path f = saved.file(out, t);
            assertTrue(Files.isRegularFile(f), name + " did not save " + t + " (as " + f.getFileName() + "); saved: " + list(out));
            assertEquals(Interop.patternSha256(size), Interop.sha256(f), "SHA-256 of " + t);
        }
    }

    private static List<String> list(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
