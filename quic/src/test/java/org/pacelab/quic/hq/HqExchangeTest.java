package org.pacelab.quic.hq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.InMemoryConnection;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.MemorySink;
import org.pacelab.quic.content.RecordingListener;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.content.TestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** hq-interop (HTTP/0.9 over QUIC) exchanges over the in-memory transport. */
class HqExchangeTest {
    private final TestContent content = new TestContent();
    private final List<ServedRequest> served = new ArrayList<>();
    private final MemorySink sink = new MemorySink();
    private final RecordingListener listener = new RecordingListener();

    private InMemoryConnection download(List<String> paths, InMemoryConnection.Settings settings) {
        List<DownloadRequest> requests = paths.stream()
                .map(p -> DownloadRequest.of(URI.create("https://example.test" + p))).toList();
        InMemoryConnection[] conn = new InMemoryConnection[1];
        HqClientHandler client = new HqClientHandler(requests, sink, listener, () -> conn[0].now());
        conn[0] = new InMemoryConnection(client, new HqServerHandler(content, served::add), settings);
        conn[0].start();
        conn[0].runUntilQuiet(2_000_000);
        return conn[0];
    }

    @Test
    void getReturnsTheBodyUpToFin() {
        InMemoryConnection conn = download(List.of("/bytes/54321"), InMemoryConnection.Settings.of("hq-interop"));
        DownloadResult r = listener.all.get(0);
        assertNull(r.error());
        assertEquals(0, r.status());
        assertArrayEquals(TestContent.pattern(54321), sink.committed.get("/bytes/54321"));
        assertTrue(r.firstByteNanos() > r.requestSentNanos() && r.lastByteNanos() > r.firstByteNanos());
        assertEquals(HqError.NO_ERROR.code, conn.client.closeCode);
        assertEquals(List.of(new ServedRequest(0, "GET", "/bytes/54321", 200, 54321, null)), served);
        assertFalse(conn.server.shortWrites.isEmpty());
    }

    @Test
    void fiftyConcurrentDownloadsWithinTheStreamLimit() {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            paths.add("/bytes/" + (i * 1511));
        }
        download(paths, InMemoryConnection.Settings.of("hq-interop").withStreams(7, 0));
        assertEquals(50, listener.all.size());
        for (int i = 0; i < 50; i++) {
            assertNull(listener.all.get(i).error());
            assertArrayEquals(TestContent.pattern(i * 1511), sink.committed.get("/bytes/" + (i * 1511)));
        }
    }

    @Test
    void largeBody() {
        int n = 3 * 1024 * 1024 + 1;
        download(List.of("/bytes/" + n), InMemoryConnection.Settings.of("hq-interop").withBuffers(16384, 65536, 1400));
        assertArrayEquals(TestContent.pattern(n), sink.committed.get("/bytes/" + n));
    }

    @Test
    void refusedPathsAreResetAndFailTheDownload() {
        content.files.put("/ok", "fine".getBytes(StandardCharsets.UTF_8));
        InMemoryConnection conn = download(List.of("/missing", "/ok", "/bytes/x"),
                InMemoryConnection.Settings.of("hq-interop"));
        assertTrue(listener.all.get(0).error().contains("NOT_FOUND"), listener.all.get(0).error());
        assertArrayEquals("fine".getBytes(StandardCharsets.UTF_8), sink.committed.get("/ok"));
        assertTrue(listener.all.get(2).error().contains("BAD_REQUEST"), listener.all.get(2).error());
        assertEquals(HqError.NOT_FOUND.code, conn.server.resetsSent.get(0L));
        assertEquals(404, served.get(0).status());
        assertFalse(sink.committed.containsKey("/missing"));
        assertTrue(sink.aborted.isEmpty(), "no output is opened for a stream that was reset before any byte");
    }

    /** A raw client that sends one request stream and records the answer. */
    private static final class RawClient implements ApplicationHandler {
        private final byte[] request;
        StreamTransport transport;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        final Map<Long, Long> resets = new HashMap<>();
        boolean fin;

        RawClient(byte[] request) {
            this.request = request;
        }

        @Override
        public void onConnected(StreamTransport t) {
            transport = t;
            long id = t.openStream(true);
            t.write(id, ByteBuffer.wrap(request), true);
        }

        @Override
        public void onStreamReadable(long streamId) {
            ByteBuffer b = ByteBuffer.allocate(1024);
            int n;
            while ((n = transport.read(streamId, b.clear())) > 0) {
                body.write(b.array(), 0, n);
            }
            fin |= n < 0;
        }

        @Override
        public void onStreamReset(long streamId, long code) {
            resets.put(streamId, code);
        }
    }

    private RawClient raw(String request) {
        RawClient c = new RawClient(request.getBytes(StandardCharsets.ISO_8859_1));
        InMemoryConnection conn = new InMemoryConnection(c, new HqServerHandler(content, served::add),
                InMemoryConnection.Settings.of("hq-interop").withBuffers(32768, 32768, 1200));
        conn.start();
        conn.runUntilQuiet(10_000);
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST /bytes/1\r\n", "GET bytes/1\r\n", "GET /a b\r\n", "GET \r\n", "\r\n", "",
            "GET /a\u0000b\r\n", "get /bytes/1\r\n"})
    void badRequestLinesAreReset(String line) {
        RawClient c = raw(line);
        assertEquals(HqError.BAD_REQUEST.code, c.resets.get(0L));
        assertEquals(400, served.get(0).status());
    }

    @Test
    void overlongRequestLineIsReset() {
        RawClient c = raw("GET /" + "a".repeat(HqRequestLine.MAX_LENGTH) + "\r\n");
        assertEquals(HqError.BAD_REQUEST.code, c.resets.get(0L));
    }

    @Test
    void requestLineMayEndWithFinOrBareLf() {
        RawClient c = raw("GET /bytes/5");
        assertArrayEquals(TestContent.pattern(5), c.body.toByteArray());
        assertTrue(c.fin);
        RawClient d = raw("GET /bytes/6\n");
        assertArrayEquals(TestContent.pattern(6), d.body.toByteArray());
    }
}
