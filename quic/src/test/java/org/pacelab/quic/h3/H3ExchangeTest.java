package org.pacelab.quic.h3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.pacelab.quic.app.InMemoryConnection;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.MemorySink;
import org.pacelab.quic.content.RecordingListener;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.content.TestContent;
import org.junit.jupiter.api.Test;

/** Full HTTP/3 exchanges between {@link H3ClientHandler} and {@link H3ServerHandler} over the in-memory transport. */
class H3ExchangeTest {
    private final TestContent content = new TestContent();
    private final List<ServedRequest> served = new ArrayList<>();
    private final MemorySink sink = new MemorySink();
    private final RecordingListener listener = new RecordingListener();

    private InMemoryConnection connect(List<String> urls, InMemoryConnection.Settings settings) {
        List<DownloadRequest> requests = urls.stream().map(u -> DownloadRequest.of(URI.create(u))).toList();
        InMemoryConnection[] conn = new InMemoryConnection[1];
        H3ClientHandler client = new H3ClientHandler(requests, sink, listener, () -> conn[0].now());
        H3ServerHandler server = new H3ServerHandler(content, served::add);
        conn[0] = new InMemoryConnection(client, server, settings);
        conn[0].start();
        return conn[0];
    }

    @Test
    void getDownloadsTheBodyWithTimingAndClosesCleanly() {
        InMemoryConnection conn = connect(List.of("https://example.test:4433/bytes/100000"),
                InMemoryConnection.Settings.of("h3"));
        conn.runUntilQuiet(100_000);

        assertEquals(1, listener.allFinishedCalls);
        DownloadResult r = listener.all.get(0);
        assertNull(r.error());
        assertEquals(200, r.status());
        assertEquals(100_000, r.bodyBytes());
        assertArrayEquals(TestContent.pattern(100_000), sink.committed.get("/bytes/100000"));
        assertTrue(r.requestSentNanos() >= 0);
        assertTrue(r.firstByteNanos() > r.requestSentNanos());
        assertTrue(r.lastByteNanos() > r.firstByteNanos());
        assertEquals(0, r.streamId());
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
        assertEquals(H3Error.H3_NO_ERROR.code, conn.server.closedWithCode);
        assertEquals(List.of(new ServedRequest(0, "GET", "/bytes/100000", 200, 100_000, null)), served);
        assertFalse(conn.server.shortWrites.isEmpty(), "the body must have met a full send buffer");
    }

    @Test
    void fiftyConcurrentRequestsShareOneConnectionWithinTheStreamLimit() {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            urls.add("https://example.test/bytes/" + (i * 997 + (i % 3 == 0 ? 0 : 13)));
        }
        InMemoryConnection conn = connect(urls, InMemoryConnection.Settings.of("h3").withStreams(10, 3));
        conn.runUntilQuiet(200_000);

        assertEquals(50, listener.all.size());
        for (int i = 0; i < 50; i++) {
            DownloadResult r = listener.all.get(i);
            int n = i * 997 + (i % 3 == 0 ? 0 : 13);
            assertNull(r.error(), r.toString());
            assertEquals(n, r.bodyBytes());
            assertArrayEquals(TestContent.pattern(n), sink.committed.get("/bytes/" + n));
            assertEquals(4L * i, r.streamId(), "requests start in order on consecutive streams");
        }
        assertEquals(50, served.size());
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
    }

    @Test
    void largeBodyStreamsThroughSmallWindowsWithBoundedPieces() {
        int n = 3 * 1024 * 1024 + 7;
        InMemoryConnection conn = connect(List.of("https://example.test/bytes/" + n),
                InMemoryConnection.Settings.of("h3").withBuffers(16 * 1024, 32 * 1024, 1350));
        conn.runUntilQuiet(1_000_000);

        assertNull(listener.all.get(0).error());
        assertArrayEquals(TestContent.pattern(n), sink.committed.get("/bytes/" + n));
        assertTrue(sink.largestWrite <= H3Endpoint.READ_CHUNK);
    }

    @Test
    void emptyBodyIsAnEmptyDownload() {
        InMemoryConnection conn = connect(List.of("https://example.test/bytes/0"), InMemoryConnection.Settings.of("h3"));
        conn.runUntilQuiet(10_000);
        assertNull(listener.all.get(0).error());
        assertArrayEquals(new byte[0], sink.committed.get("/bytes/0"));
    }

    @Test
    void errorStatusFailsTheDownloadWithTheServersReason() {
        content.files.put("/present", new byte[] {1, 2, 3});
        InMemoryConnection conn = connect(List.of("https://example.test/missing", "https://example.test/present",
                "https://example.test/bytes/x"), InMemoryConnection.Settings.of("h3"));
        conn.runUntilQuiet(10_000);

        DownloadResult missing = listener.all.get(0);
        assertEquals(404, missing.status());
        assertTrue(missing.error().contains("404") && missing.error().contains("no file at /missing"), missing.error());
        assertArrayEquals(new byte[] {1, 2, 3}, sink.committed.get("/present"));
        assertEquals(400, listener.all.get(2).status());
        assertFalse(sink.committed.containsKey("/missing"));
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
    }

    @Test
    void storageFailureFailsOnlyThatDownload() {
        sink.failOpen.add("/bytes/5000");
        InMemoryConnection conn = connect(List.of("https://example.test/bytes/5000", "https://example.test/bytes/6000"),
                InMemoryConnection.Settings.of("h3"));
        conn.runUntilQuiet(10_000);

        assertTrue(listener.all.get(0).error().contains("disk full"), listener.all.get(0).error());
        assertEquals(H3Error.H3_REQUEST_CANCELLED.code, conn.client.stopSendingsSent.get(0L));
        assertNull(listener.all.get(1).error());
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
    }

    @Test
    void noRequestsClosesAtOnce() {
        InMemoryConnection conn = connect(List.of(), InMemoryConnection.Settings.of("h3"));
        conn.runUntilQuiet(1000);
        assertEquals(1, listener.allFinishedCalls);
        assertEquals(List.of(), listener.all);
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
    }

    @Test
    void serverCloseFailsOutstandingDownloads() {
        InMemoryConnection conn = connect(List.of("https://example.test/bytes/1000000"),
                InMemoryConnection.Settings.of("h3"));
        for (int i = 0; i < 20; i++) {
            conn.step();
        }
        conn.server.close(H3Error.H3_INTERNAL_ERROR.code, "test");
        conn.runUntilQuiet(1000);
        DownloadResult r = listener.all.get(0);
        assertTrue(r.error().contains("H3_INTERNAL_ERROR"), r.error());
        assertTrue(sink.aborted.contains("/bytes/1000000"));
    }
}
