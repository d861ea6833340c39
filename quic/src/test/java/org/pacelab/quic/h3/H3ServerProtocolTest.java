package org.pacelab.quic.h3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.h3.ScriptedPeer.bytes;
import static org.pacelab.quic.h3.ScriptedPeer.concat;
import static org.pacelab.quic.h3.ScriptedPeer.frame;
import static org.pacelab.quic.h3.ScriptedPeer.headers;
import static org.pacelab.quic.h3.ScriptedPeer.request;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.pacelab.quic.app.InMemoryConnection;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.content.TestContent;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.h3.qpack.QpackError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The HTTP/3 server against a scripted client: request handling, status codes and every connection error. */
class H3ServerProtocolTest {
    private final TestContent content = new TestContent();
    private final List<ServedRequest> served = new ArrayList<>();
    private ScriptedPeer peer;
    private H3ServerHandler server;

    private InMemoryConnection serve(Consumer<ScriptedPeer> script) {
        return serve(script, InMemoryConnection.Settings.of("h3"));
    }

    private InMemoryConnection serve(Consumer<ScriptedPeer> script, InMemoryConnection.Settings settings) {
        peer = new ScriptedPeer(script);
        server = new H3ServerHandler(content, served::add);
        InMemoryConnection conn = new InMemoryConnection(peer, server, settings);
        conn.start();
        conn.runUntilQuiet(20_000);
        return conn;
    }

    private static HeaderField f(String name, String value) {
        return new HeaderField(name, value);
    }

    @Test
    void opensControlAndQpackStreamsWithZeroCapacitySettings() throws Exception {
        serve(p -> p.openCriticalStreams());
        // Server-initiated unidirectional streams 3, 7, 11: control with SETTINGS, QPACK encoder, QPACK decoder.
        assertArrayEquals(bytes("00 04 04 01 00 07 00"), peer.receivedOn(3));
        assertArrayEquals(bytes("02"), peer.receivedOn(7));
        assertArrayEquals(bytes("03"), peer.receivedOn(11));
    }

    @Test
    void headAnswersWithHeadersOnly() throws Exception {
        serve(p -> {
            p.openCriticalStreams();
            p.open(true, request("HEAD", "/bytes/12345"), true);
        });
        ParsedResponse r = ParsedResponse.parse(peer.receivedOn(0));
        assertEquals(200, r.status());
        assertEquals("12345", r.header("content-length"));
        assertEquals(0, r.dataFrames());
        assertEquals(0, r.body().length);
        assertTrue(peer.finished.get(0L));
        assertEquals(new ServedRequest(0, "HEAD", "/bytes/12345", 200, 0, null), served.get(0));
    }

    @Test
    void getSkipsUnknownFramesAndAcceptsBodyAndTrailers() throws Exception {
        serve(p -> {
            p.openCriticalStreams();
            p.open(true, concat(frame(0x21, bytes("aabbcc")), request("GET", "/bytes/3000"),
                    frame(FrameType.DATA, bytes("0102")), frame(0x1f * 7 + 0x21, new byte[0]),
                    headers(List.of(f("x-trailer", "1")))), true);
        });
        ParsedResponse r = ParsedResponse.parse(peer.receivedOn(0));
        assertEquals(200, r.status());
        assertEquals(1, r.dataFrames(), "the whole body goes in one DATA frame");
        assertArrayEquals(TestContent.pattern(3000), r.body());
        assertNull(peer.closedWith);
    }

    @Test
    void acceptsHostInsteadOfAuthority() throws Exception {
        serve(p -> {
            p.openCriticalStreams();
            p.open(true, headers(List.of(f(":method", "GET"), f(":scheme", "https"), f(":path", "/bytes/1"),
                    f("host", "example.test"))), true);
        });
        assertEquals(200, ParsedResponse.parse(peer.receivedOn(0)).status());
    }

    static Stream<Arguments> refusedRequests() {
        List<HeaderField> base = List.of(f(":method", "GET"), f(":scheme", "https"), f(":authority", "a.test"));
        return Stream.of(
                Arguments.of("POST", List.of(f(":method", "POST"), f(":scheme", "https"), f(":authority", "a"),
                        f(":path", "/bytes/1")), 405),
                Arguments.of("CONNECT", List.of(f(":method", "CONNECT"), f(":authority", "a:443")), 405),
                Arguments.of("no method", List.of(f(":scheme", "https"), f(":authority", "a"), f(":path", "/")), 400),
                Arguments.of("no authority or host", List.of(f(":method", "GET"), f(":scheme", "https"),
                        f(":path", "/bytes/1")), 400),
                Arguments.of("no path", base, 400),
                Arguments.of("upper-case field name", with(base, f(":path", "/bytes/1"), f("X-Foo", "1")), 400),
                Arguments.of("pseudo after regular", List.of(f(":method", "GET"), f("x-a", "1"), f(":scheme", "https"),
                        f(":authority", "a"), f(":path", "/bytes/1")), 400),
                Arguments.of("unknown pseudo", with(base, f(":path", "/bytes/1"), f(":protocol", "websocket")), 400),
                Arguments.of("duplicate path", with(base, f(":path", "/bytes/1"), f(":path", "/bytes/2")), 400),
                Arguments.of("connection field", with(base, f(":path", "/bytes/1"), f("connection", "close")), 400),
                Arguments.of("te other than trailers", with(base, f(":path", "/bytes/1"), f("te", "gzip")), 400),
                Arguments.of("path without slash", with(base, f(":path", "bytes/1")), 400),
                Arguments.of("asterisk path with GET", with(base, f(":path", "*")), 400),
                Arguments.of("scheme ftp", List.of(f(":method", "GET"), f(":scheme", "ftp"), f(":authority", "a"),
                        f(":path", "/bytes/1")), 400),
                Arguments.of("value with CR", with(base, f(":path", "/bytes/1"), f("x-a", "a\rb")), 400),
                Arguments.of("value with leading space", with(base, f(":path", "/bytes/1"), f("x-a", " a")), 400),
                Arguments.of("authority and host differ", with(base, f(":path", "/bytes/1"), f("host", "b.test")), 400),
                Arguments.of("content-length not a number", with(base, f(":path", "/bytes/1"),
                        f("content-length", "x")), 400),
                Arguments.of("space in path", with(base, f(":path", "/a b")), 400),
                Arguments.of("missing file", with(base, f(":path", "/missing")), 404),
                Arguments.of("bad synthetic length", with(base, f(":path", "/bytes/-5")), 400));
    }

    private static List<HeaderField> with(List<HeaderField> base, HeaderField... more) {
        List<HeaderField> l = new ArrayList<>(base);
        l.addAll(List.of(more));
        return l;
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("refusedRequests")
    void refusedRequestsGetAStatusWithAReason(String what, List<HeaderField> fields, int status) throws Exception {
        serve(p -> {
            p.openCriticalStreams();
            p.open(true, headers(fields), true);
        });
        ParsedResponse r = ParsedResponse.parse(peer.receivedOn(0));
        assertEquals(status, r.status(), what);
        String text = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.startsWith(status + " "), text);
        assertEquals(status, served.get(0).status());
        assertTrue(served.get(0).error() != null && !served.get(0).error().isEmpty());
        if (status == 405) {
            assertEquals("GET, HEAD", r.header("allow"));
        }
        assertNull(peer.closedWith, "a refused request is not a connection error");
    }

    static Stream<Arguments> connectionErrors() {
        byte[] settings = frame(FrameType.SETTINGS, new byte[0]);
        byte[] control = concat(bytes("00"), settings);
        return Stream.of(
                Arguments.of("DATA before HEADERS", requestStream(true, frame(FrameType.DATA, bytes("01"))),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("HTTP/2 PRIORITY frame", requestStream(true, concat(request("GET", "/"), frame(0x02, bytes("00")))),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("HTTP/2 WINDOW_UPDATE on control", uni(concat(control, frame(0x08, bytes("01")))),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("SETTINGS on a request stream", requestStream(true, concat(request("GET", "/"), settings)),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("GOAWAY on a request stream", requestStream(true, concat(request("GET", "/"),
                        frame(FrameType.GOAWAY, bytes("00")))), H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("PUSH_PROMISE from a client", requestStream(true, concat(request("GET", "/"),
                        frame(FrameType.PUSH_PROMISE, bytes("00 0000")))), H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("HEADERS after trailers", requestStream(true, concat(request("GET", "/bytes/1"),
                        headers(List.of(f("x-t", "1"))), headers(List.of(f("x-t", "2"))))),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("DATA after trailers", requestStream(true, concat(request("GET", "/bytes/1"),
                        headers(List.of(f("x-t", "1"))), frame(FrameType.DATA, bytes("01")))),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("request stream ends inside a frame", requestStream(true, bytes("01 0a 0000")),
                        H3Error.H3_FRAME_ERROR.code),
                Arguments.of("request stream ends inside a frame header", requestStream(true, bytes("01")),
                        H3Error.H3_FRAME_ERROR.code),
                Arguments.of("HEADERS larger than 64 KiB", requestStream(false, bytes("01 80 01 11 70")),
                        H3Error.H3_EXCESSIVE_LOAD.code),
                Arguments.of("dynamic table reference in HEADERS", requestStream(true, frame(FrameType.HEADERS, bytes("0000 80"))),
                        QpackError.QPACK_DECOMPRESSION_FAILED.code),
                Arguments.of("Required Insert Count 2", requestStream(true, frame(FrameType.HEADERS, bytes("0381 10 11"))),
                        QpackError.QPACK_DECOMPRESSION_FAILED.code),
                Arguments.of("control stream starts with GOAWAY", uni(concat(bytes("00"),
                        frame(FrameType.GOAWAY, bytes("00")))), H3Error.H3_MISSING_SETTINGS.code),
                Arguments.of("second SETTINGS", uni(concat(control, settings)), H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("HTTP/2 setting 0x02", uni(concat(bytes("00"), frame(FrameType.SETTINGS, bytes("02 00")))),
                        H3Error.H3_SETTINGS_ERROR.code),
                Arguments.of("HTTP/2 setting 0x00", uni(concat(bytes("00"), frame(FrameType.SETTINGS, bytes("00 00")))),
                        H3Error.H3_SETTINGS_ERROR.code),
                Arguments.of("HTTP/2 setting 0x05", uni(concat(bytes("00"), frame(FrameType.SETTINGS, bytes("05 4000")))),
                        H3Error.H3_SETTINGS_ERROR.code),
                Arguments.of("duplicate setting", uni(concat(bytes("00"), frame(FrameType.SETTINGS, bytes("06 01 06 02")))),
                        H3Error.H3_SETTINGS_ERROR.code),
                Arguments.of("truncated setting", uni(concat(bytes("00"), frame(FrameType.SETTINGS, bytes("06 40")))),
                        H3Error.H3_FRAME_ERROR.code),
                Arguments.of("DATA on control", uni(concat(control, frame(FrameType.DATA, bytes("01")))),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("HEADERS on control", uni(concat(control, frame(FrameType.HEADERS, bytes("0000")))),
                        H3Error.H3_FRAME_UNEXPECTED.code),
                Arguments.of("CANCEL_PUSH never promised", uni(concat(control, frame(FrameType.CANCEL_PUSH, bytes("00")))),
                        H3Error.H3_ID_ERROR.code),
                Arguments.of("MAX_PUSH_ID going down", uni(concat(control, frame(FrameType.MAX_PUSH_ID, bytes("05")),
                        frame(FrameType.MAX_PUSH_ID, bytes("04")))), H3Error.H3_ID_ERROR.code),
                Arguments.of("GOAWAY going up", uni(concat(control, frame(FrameType.GOAWAY, bytes("04")),
                        frame(FrameType.GOAWAY, bytes("05")))), H3Error.H3_ID_ERROR.code),
                Arguments.of("GOAWAY with extra bytes", uni(concat(control, frame(FrameType.GOAWAY, bytes("00 00")))),
                        H3Error.H3_FRAME_ERROR.code),
                Arguments.of("control stream closed", (Consumer<ScriptedPeer>) p -> p.open(false, control, true),
                        H3Error.H3_CLOSED_CRITICAL_STREAM.code),
                Arguments.of("QPACK encoder stream closed", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("02"), true),
                        H3Error.H3_CLOSED_CRITICAL_STREAM.code),
                Arguments.of("QPACK decoder stream closed", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("03"), true),
                        H3Error.H3_CLOSED_CRITICAL_STREAM.code),
                Arguments.of("second control stream", (Consumer<ScriptedPeer>) p -> {
                    p.open(false, control, false);
                    p.open(false, control, false);
                }, H3Error.H3_STREAM_CREATION_ERROR.code),
                Arguments.of("second QPACK encoder stream", (Consumer<ScriptedPeer>) p -> {
                    p.open(false, bytes("02"), false);
                    p.open(false, bytes("02"), false);
                }, H3Error.H3_STREAM_CREATION_ERROR.code),
                Arguments.of("push stream from a client", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("01 00"), false),
                        H3Error.H3_STREAM_CREATION_ERROR.code),
                Arguments.of("QPACK insert", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("02 c0 0f 7777"), false),
                        QpackError.QPACK_ENCODER_STREAM_ERROR.code),
                Arguments.of("QPACK capacity 220", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("02 3f bd 01"), false),
                        QpackError.QPACK_ENCODER_STREAM_ERROR.code),
                Arguments.of("QPACK duplicate", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("02 00"), false),
                        QpackError.QPACK_ENCODER_STREAM_ERROR.code),
                Arguments.of("QPACK section acknowledgment", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("03 84"), false),
                        QpackError.QPACK_DECODER_STREAM_ERROR.code),
                Arguments.of("QPACK insert count increment", (Consumer<ScriptedPeer>) p -> p.open(false, bytes("03 01"), false),
                        QpackError.QPACK_DECODER_STREAM_ERROR.code));
    }

    /** Critical streams, then a request stream with these bytes. */
    private static Consumer<ScriptedPeer> requestStream(boolean fin, byte[] bytes) {
        return p -> {
            p.openCriticalStreams();
            p.open(true, bytes, fin);
        };
    }

    /** A unidirectional stream with these bytes, and the QPACK streams. */
    private static Consumer<ScriptedPeer> uni(byte[] bytes) {
        return p -> {
            p.open(false, bytes, false);
            p.open(false, bytes("02"), false);
            p.open(false, bytes("03"), false);
        };
    }

    @ParameterizedTest(name = "{0} -> 0x{2}")
    @MethodSource("connectionErrors")
    void protocolViolationsCloseTheConnectionWithTheRfcCode(String what, Consumer<ScriptedPeer> script, long code) {
        InMemoryConnection conn = serve(script);
        assertEquals(code, conn.server.closeCode, what + ": " + conn.server.closeReason);
        assertEquals(code, peer.closedWith);
        assertTrue(conn.server.closeReason != null && !conn.server.closeReason.isEmpty());
    }

    @Test
    void unknownStreamTypesSettingsAndFramesAreIgnored() throws Exception {
        InMemoryConnection conn = serve(p -> {
            p.open(false, concat(bytes("00"), frame(FrameType.SETTINGS, bytes("21 05 06 4000 08 01 33 01")),
                    frame(0x21 + 0x1f, bytes("0102")), frame(FrameType.GOAWAY, bytes("08"))), false);
            p.open(false, bytes("02 20"), false); // Set Dynamic Table Capacity 0
            p.open(false, bytes("03 48 7fe807"), false); // Stream Cancellations
            p.open(false, bytes("21 ffff"), false); // reserved stream type
            p.open(false, bytes("3f 00"), false); // unknown stream type 0x3f
            p.open(true, request("GET", "/bytes/10"), true);
        }, InMemoryConnection.Settings.of("h3").withStreams(8, 8));
        assertNull(peer.closedWith, conn.server.closeReason);
        assertEquals(H3Error.H3_STREAM_CREATION_ERROR.code, conn.server.stopSendingsSent.get(14L));
        assertEquals(H3Error.H3_STREAM_CREATION_ERROR.code, conn.server.stopSendingsSent.get(18L));
        assertEquals(200, ParsedResponse.parse(peer.receivedOn(0)).status());
        assertEquals(5, server.peerSettings().valueOf(0x21, -1));
    }

    @Test
    void resetOfTheControlStreamIsAClosedCriticalStream() {
        long[] control = new long[1];
        InMemoryConnection conn = serve(p -> control[0] = p.open(false, concat(bytes("00"),
                frame(FrameType.SETTINGS, new byte[0])), false));
        assertNull(peer.closedWith);
        peer.transport.resetStream(control[0], H3Error.H3_NO_ERROR.code);
        conn.runUntilQuiet(1000);
        assertEquals(H3Error.H3_CLOSED_CRITICAL_STREAM.code, conn.server.closeCode);
    }

    @Test
    void resetOfAUniStreamBeforeItsTypeIsTolerated() {
        InMemoryConnection conn = serve(p -> {
            p.openCriticalStreams();
            long id = p.transport.openStream(false);
            p.transport.resetStream(id, H3Error.H3_NO_ERROR.code);
            p.open(true, request("GET", "/bytes/1"), true);
        });
        assertNull(conn.server.closeCode);
    }

    @Test
    void stopSendingOnOurControlStreamIsAClosedCriticalStream() {
        peer = new ScriptedPeer(ScriptedPeer::openCriticalStreams);
        InMemoryConnection conn = new InMemoryConnection(peer, new H3ServerHandler(content),
                InMemoryConnection.Settings.of("h3"));
        conn.start();
        conn.runUntilQuiet(1000);
        peer.transport.stopSending(3, H3Error.H3_NO_ERROR.code);
        conn.runUntilQuiet(1000);
        assertEquals(H3Error.H3_CLOSED_CRITICAL_STREAM.code, conn.server.closeCode);
    }

    @Test
    void requestStreamWithoutHeadersIsResetAsIncomplete() {
        InMemoryConnection conn = serve(p -> {
            p.openCriticalStreams();
            p.open(true, frame(0x21, bytes("00")), true);
        });
        assertEquals(H3Error.H3_REQUEST_INCOMPLETE.code, conn.server.resetsSent.get(0L));
        assertNull(peer.closedWith);
    }

    @Test
    void bodyLongerOrShorterThanContentLengthIsAMessageError() {
        List<HeaderField> withLength = List.of(f(":method", "GET"), f(":scheme", "https"), f(":authority", "a"),
                f(":path", "/bytes/1"), f("content-length", "2"));
        InMemoryConnection conn = serve(p -> {
            p.openCriticalStreams();
            p.open(true, concat(headers(withLength), frame(FrameType.DATA, bytes("010203"))), true);
            p.open(true, concat(headers(withLength), frame(FrameType.DATA, bytes("01"))), true);
            p.open(true, concat(headers(withLength), frame(FrameType.DATA, bytes("0102")),
                    headers(List.of(f(":status", "200")))), true);
        });
        assertEquals(H3Error.H3_MESSAGE_ERROR.code, conn.server.resetsSent.get(0L));
        assertEquals(H3Error.H3_MESSAGE_ERROR.code, conn.server.stopSendingsSent.get(0L));
        assertEquals(H3Error.H3_MESSAGE_ERROR.code, conn.server.resetsSent.get(4L));
        assertEquals(H3Error.H3_MESSAGE_ERROR.code, conn.server.resetsSent.get(8L), "pseudo-header in trailers");
        assertNull(peer.closedWith);
    }

    @Test
    void shutdownSendsGoawayRejectsLaterRequestsAndClosesWhenDrained() throws Exception {
        peer = new ScriptedPeer(p -> {
            p.openCriticalStreams();
            p.open(true, request("GET", "/bytes/200000"), true);
        });
        server = new H3ServerHandler(content, served::add);
        InMemoryConnection conn = new InMemoryConnection(peer, server, InMemoryConnection.Settings.of("h3"));
        conn.start();
        for (int i = 0; i < 5; i++) {
            conn.step();
        }
        server.shutdown();
        peer.open(true, request("GET", "/bytes/10"), true);
        conn.runUntilQuiet(100_000);

        assertArrayEquals(TestContent.pattern(200_000), ParsedResponse.parse(peer.receivedOn(0)).body());
        assertEquals(H3Error.H3_REQUEST_REJECTED.code, peer.resets.get(4L));
        byte[] control = peer.receivedOn(3);
        byte[] goaway = frame(FrameType.GOAWAY, bytes("04"));
        byte[] tail = java.util.Arrays.copyOfRange(control, control.length - goaway.length, control.length);
        assertArrayEquals(goaway, tail, "GOAWAY naming stream 4, the first not accepted");
        assertEquals(H3Error.H3_NO_ERROR.code, conn.server.closeCode);
    }
}
