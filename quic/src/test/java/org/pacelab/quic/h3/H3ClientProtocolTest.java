package org.pacelab.quic.h3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.h3.ScriptedPeer.bytes;
import static org.pacelab.quic.h3.ScriptedPeer.concat;
import static org.pacelab.quic.h3.ScriptedPeer.frame;
import static org.pacelab.quic.h3.ScriptedPeer.headers;

import java.net.URI;
import java.util.List;
import org.pacelab.quic.app.InMemoryConnection;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.MemorySink;
import org.pacelab.quic.content.RecordingListener;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.junit.jupiter.api.Test;

/** The HTTP/3 client against a scripted server: response handling and connection errors. */
class H3ClientProtocolTest {
    private final MemorySink sink = new MemorySink();
    private final RecordingListener listener = new RecordingListener();
    private ScriptedPeer server;
    private InMemoryConnection conn;

    private void connect(String... paths) {
        List<DownloadRequest> requests = java.util.Arrays.stream(paths)
                .map(p -> DownloadRequest.of(URI.create("https://example.test" + p))).toList();
        server = new ScriptedPeer(ScriptedPeer::openCriticalStreams);
        H3ClientHandler client = new H3ClientHandler(requests, sink, listener, () -> conn.now());
        conn = new InMemoryConnection(client, server, InMemoryConnection.Settings.of("h3"));
        conn.start();
        conn.runUntilQuiet(10_000);
    }

    private void respond(long streamId, byte[] bytes, boolean fin) {
        server.write(streamId, bytes, fin);
        conn.runUntilQuiet(10_000);
    }

    private static byte[] status(String code, HeaderField... more) {
        List<HeaderField> fields = new java.util.ArrayList<>(List.of(new HeaderField(":status", code)));
        fields.addAll(List.of(more));
        return headers(fields);
    }

    @Test
    void sendsAWellFormedGetAndAcceptsInterimResponsesAndTrailers() throws Exception {
        connect("/file?q=1");
        ParsedResponse sent = ParsedResponse.parse(server.receivedOn(0));
        assertEquals(List.of(new HeaderField(":method", "GET"), new HeaderField(":scheme", "https"),
                new HeaderField(":authority", "example.test"), new HeaderField(":path", "/file?q=1"),
                new HeaderField("user-agent", "pacelab")), sent.headerSections().get(0));
        assertTrue(server.finished.get(0L));

        respond(0, concat(status("103"), status("200", new HeaderField("content-length", "3")),
                frame(0x21, bytes("00")), frame(FrameType.DATA, bytes("0102")), frame(FrameType.DATA, bytes("03")),
                headers(List.of(new HeaderField("x-checksum", "abc")))), true);
        assertNull(listener.all.get(0).error());
        assertArrayEquals(bytes("010203"), sink.committed.get("/file?q=1"));
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
    }

    @Test
    void contentLengthMismatchIsAMalformedResponse() {
        connect("/a", "/b");
        respond(0, concat(status("200", new HeaderField("content-length", "5")), frame(FrameType.DATA, bytes("01"))), true);
        respond(4, concat(status("200", new HeaderField("content-length", "1")), frame(FrameType.DATA, bytes("0102"))),
                false);
        assertTrue(listener.all.get(0).error().contains("content-length"), listener.all.get(0).error());
        assertTrue(listener.all.get(1).error().contains("malformed"), listener.all.get(1).error());
        assertEquals(H3Error.H3_MESSAGE_ERROR.code, conn.client.stopSendingsSent.get(4L));
        assertTrue(sink.aborted.contains("/b"));
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode, "stream errors leave the connection up");
    }

    @Test
    void responseWithoutStatusOrWithTwoIsMalformed() {
        connect("/a", "/b", "/c");
        respond(0, headers(List.of(new HeaderField("content-length", "0"))), true);
        respond(4, concat(status("200"), headers(List.of(new HeaderField(":status", "200")))), true);
        respond(8, status("2000"), true);
        for (int i = 0; i < 3; i++) {
            assertTrue(listener.all.get(i).error().contains("malformed"), listener.all.get(i).error());
        }
    }

    @Test
    void errorStatusAndResetFailTheDownload() {
        connect("/a", "/b", "/c");
        respond(0, concat(status("500"), frame(FrameType.DATA, "500 boom\n".getBytes())), true);
        server.transport.resetStream(4, H3Error.H3_REQUEST_REJECTED.code);
        server.transport.resetStream(8, H3Error.H3_INTERNAL_ERROR.code);
        conn.runUntilQuiet(1000);
        assertEquals("/a: the server answered 500: 500 boom", listener.all.get(0).error());
        assertTrue(listener.all.get(1).error().contains("H3_REQUEST_REJECTED") && listener.all.get(1).error()
                .contains("retried"), listener.all.get(1).error());
        assertTrue(listener.all.get(2).error().contains("H3_INTERNAL_ERROR"));
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
    }

    @Test
    void goawayFailsRequestsTheServerWillNotProcess() {
        connect("/a", "/b");
        server.open(false, concat(bytes("21"), bytes("00")), false); // a reserved stream type, ignored
        long control = 3;
        server.write(control, frame(FrameType.GOAWAY, bytes("04")), false);
        conn.runUntilQuiet(1000);
        assertTrue(listener.finished.get(0).error().contains("GOAWAY"), listener.finished.get(0).error());
        respond(0, status("200", new HeaderField("content-length", "0")), true);
        assertNull(listener.all.get(0).error());
        assertEquals(H3Error.H3_NO_ERROR.code, conn.client.closeCode);
    }

    @Test
    void serverViolationsCloseTheConnectionWithTheRfcCode() {
        record Case(String what, long code, java.util.function.Consumer<H3ClientProtocolTest> act) {
        }
        List<Case> cases = List.of(
                new Case("DATA before HEADERS", H3Error.H3_FRAME_UNEXPECTED.code,
                        t -> t.respond(0, frame(FrameType.DATA, bytes("01")), true)),
                new Case("PUSH_PROMISE without MAX_PUSH_ID", H3Error.H3_ID_ERROR.code,
                        t -> t.respond(0, frame(FrameType.PUSH_PROMISE, bytes("00 0000")), false)),
                new Case("push stream without MAX_PUSH_ID", H3Error.H3_ID_ERROR.code,
                        t -> {
                            t.server.open(false, bytes("01 00"), false);
                            t.conn.runUntilQuiet(1000);
                        }),
                new Case("server-initiated bidirectional stream", H3Error.H3_STREAM_CREATION_ERROR.code,
                        t -> {
                            t.server.open(true, bytes("00"), false);
                            t.conn.runUntilQuiet(1000);
                        }),
                new Case("GOAWAY naming a non-request stream", H3Error.H3_ID_ERROR.code,
                        t -> t.respond(3, frame(FrameType.GOAWAY, bytes("01")), false)),
                new Case("MAX_PUSH_ID from a server", H3Error.H3_FRAME_UNEXPECTED.code,
                        t -> t.respond(3, frame(FrameType.MAX_PUSH_ID, bytes("01")), false)),
                new Case("Huffman string with EOS", 0x200,
                        t -> t.respond(0, frame(FrameType.HEADERS, bytes("0000 5f1d 84 ffffffff")), true)));
        for (Case c : cases) {
            connect("/x");
            c.act().accept(this);
            assertEquals(c.code(), conn.client.closeCode, c.what() + ": " + conn.client.closeReason);
            assertTrue(listener.all.get(0).error().contains("connection ended"), c.what());
        }
    }
}
