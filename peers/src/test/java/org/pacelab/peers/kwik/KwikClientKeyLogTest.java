package org.pacelab.peers.kwik;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.io.runtime.QuicClient;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.ClientTls;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;

/**
 * The Kwik client's key log is appended once the handshake is done, not when the connection ends: the keys are there
 * while the transfer runs (and stay when the process is killed), and a key log that cannot be written is a warning
 * that leaves the downloads' outcome alone.
 */
@Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class KwikClientKeyLogTest {
    private static KwikServer server;

    @BeforeAll
    static void start() throws Exception {
        server = KwikServer.start(new InetSocketAddress("127.0.0.1", 0), KwikOptions.defaults(),
                Certificates.selfSigned(List.of("localhost")), SyntheticContent.only(), r -> {});
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static QuicClient.Outcome download(DownloadSink sink, Path keyLog) throws IOException {
        InetSocketAddress addr = server.localAddress();
        return KwikClient.download(addr, new ClientTls("hq-interop", "localhost", null, true),
                List.of(new DownloadRequest("localhost:" + addr.getPort(), "/bytes/100000")), sink,
                KwikOptions.defaults().withKeyLog(keyLog), 60_000_000_000L);
    }

    private static long count(List<String> lines, String label) {
        return lines.stream().filter(l -> l.startsWith(label + " ")).count();
    }

    @Test
    void theKeysAreInTheKeyLogBeforeTheResponseArrives(@TempDir Path dir) throws Exception {
        Path keys = dir.resolve("keys.log");
        AtomicReference<List<String>> whenTheBodyStarted = new AtomicReference<>();
        DownloadSink sink = request -> {
            try {
                whenTheBodyStarted.set(Files.exists(keys) ? Files.readAllLines(keys) : List.of());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return DownloadSink.DISCARD.open(request);
        };
        QuicClient.Outcome o = download(sink, keys);
        assertTrue(o.allSucceeded(), "download failed: " + o);
        List<String> during = whenTheBodyStarted.get();
        assertNotNull(during, "the sink was never opened");
        for (String label : List.of("CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET",
                "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0")) {
            assertEquals(1, count(during, label), label + " in the key log when the response began: " + during);
            assertEquals(1, count(Files.readAllLines(keys), label), label + " once in the key log at the end");
        }
        try (var left = Files.list(dir)) {
            assertEquals(List.of(keys), left.toList(), "the connection's secrets file is deleted");
        }
    }

    @Test
    void aKeyLogThatCannotBeWrittenIsAWarningAndTheDownloadStillSucceeds(@TempDir Path dir) throws Exception {
        Path keys = Files.createDirectory(dir.resolve("keys.log")); // appending to it fails
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        QuicClient.Outcome o;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            o = download(DownloadSink.DISCARD, keys);
        } finally {
            System.setErr(old);
        }
        assertTrue(o.allSucceeded(), "the outcome is the downloads': " + o);
        assertEquals(100_000, o.results().getFirst().bodyBytes());
        List<String> warnings = err.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith("pacelab kwik-client: warning: ")).toList();
        assertEquals(1, warnings.size(), "one warning: " + err);
        assertTrue(warnings.getFirst().contains("could not be appended to the key log " + keys), warnings.getFirst());
    }
}
