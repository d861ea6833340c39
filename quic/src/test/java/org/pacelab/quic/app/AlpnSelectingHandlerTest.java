package org.pacelab.quic.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.MemorySink;
import org.pacelab.quic.content.RecordingListener;
import org.pacelab.quic.content.TestContent;
import org.pacelab.quic.h3.H3ClientHandler;
import org.pacelab.quic.h3.H3Endpoint;
import org.pacelab.quic.h3.H3ServerHandler;
import org.pacelab.quic.hq.HqClientHandler;
import org.pacelab.quic.hq.HqServerHandler;
import org.junit.jupiter.api.Test;

class AlpnSelectingHandlerTest {
    private final TestContent content = new TestContent();

    private AlpnSelectingHandler server() {
        return new AlpnSelectingHandler(Map.<String, Supplier<? extends ApplicationHandler>>of(
                H3Endpoint.ALPN, () -> new H3ServerHandler(content),
                HqServerHandler.ALPN, () -> new HqServerHandler(content)));
    }

    @Test
    void servesEachProtocolWithItsHandler() {
        for (String alpn : List.of(H3Endpoint.ALPN, HqServerHandler.ALPN)) {
            MemorySink sink = new MemorySink();
            RecordingListener listener = new RecordingListener();
            List<DownloadRequest> requests = List.of(DownloadRequest.of(URI.create("https://a.test/bytes/777")));
            InMemoryConnection[] conn = new InMemoryConnection[1];
            ApplicationHandler client = alpn.equals(H3Endpoint.ALPN)
                    ? new H3ClientHandler(requests, sink, listener, () -> conn[0].now())
                    : new HqClientHandler(requests, sink, listener, () -> conn[0].now());
            AlpnSelectingHandler server = server();
            conn[0] = new InMemoryConnection(client, server, InMemoryConnection.Settings.of(alpn));
            conn[0].start();
            conn[0].runUntilQuiet(10_000);
            assertNull(listener.all.get(0).error());
            assertEquals(777, sink.committed.get("/bytes/777").length);
            Class<?> expected = alpn.equals(H3Endpoint.ALPN) ? H3ServerHandler.class : HqServerHandler.class;
            assertEquals(expected, server.selected().getClass());
        }
    }

    @Test
    void unknownProtocolClosesTheConnection() {
        RecordingListener listener = new RecordingListener();
        H3ClientHandler client = new H3ClientHandler(List.of(DownloadRequest.of(URI.create("https://a.test/x"))),
                new MemorySink(), listener, () -> 0);
        InMemoryConnection conn = new InMemoryConnection(client, server(), InMemoryConnection.Settings.of("spdy/3"));
        conn.start();
        conn.runUntilQuiet(1000);
        assertEquals(0L, conn.server.closeCode);
        assertTrue(conn.server.closeReason.contains("spdy/3"));
        assertTrue(listener.all.get(0).error().contains("connection ended"));
    }
}
