package org.pacelab.quic.h3;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.h3.qpack.FieldSectionEncoder;
import org.pacelab.quic.h3.qpack.HeaderField;

/**
 * A test peer that writes whatever bytes a test scripts and records what it receives, to drive the
 * HTTP/3 handlers into every error path.
 */
final class ScriptedPeer implements ApplicationHandler {
    private final Consumer<ScriptedPeer> script;
    StreamTransport transport;
    final Map<Long, ByteArrayOutputStream> received = new TreeMap<>();
    final Map<Long, Boolean> finished = new TreeMap<>();
    final Map<Long, Long> resets = new TreeMap<>();
    final Map<Long, Long> stopSendings = new TreeMap<>();
    Long closedWith;

    ScriptedPeer(Consumer<ScriptedPeer> script) {
        this.script = script;
    }

    @Override
    public void onConnected(StreamTransport transport) {
        this.transport = transport;
        script.accept(this);
    }

    @Override
    public void onStreamReadable(long streamId) {
        ByteBuffer b = ByteBuffer.allocate(4096);
        while (true) {
            b.clear();
            int n = transport.read(streamId, b);
            if (n == 0) {
                return;
            }
            if (n < 0) {
                finished.put(streamId, true);
                return;
            }
            received.computeIfAbsent(streamId, k -> new ByteArrayOutputStream()).write(b.array(), 0, n);
        }
    }

    @Override
    public void onStreamReset(long streamId, long applicationErrorCode) {
        resets.put(streamId, applicationErrorCode);
    }

    @Override
    public void onStopSending(long streamId, long applicationErrorCode) {
        stopSendings.put(streamId, applicationErrorCode);
    }

    @Override
    public void onClosed(long errorCode, boolean application, String reason) {
        closedWith = errorCode;
    }

    /** Opens a stream and writes {@code bytes} to it (all must fit the send buffer). */
    long open(boolean bidi, byte[] bytes, boolean fin) {
        long id = transport.openStream(bidi);
        write(id, bytes, fin);
        return id;
    }

    void write(long id, byte[] bytes, boolean fin) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        transport.write(id, b, fin);
        if (b.hasRemaining()) {
            throw new IllegalStateException("scripted write did not fit the send buffer");
        }
    }

    /** Opens our control stream with an empty SETTINGS frame, and the two QPACK streams. */
    void openCriticalStreams() {
        open(false, concat(bytes("00"), frame(FrameType.SETTINGS, new byte[0])), false);
        open(false, bytes("02"), false);
        open(false, bytes("03"), false);
    }

    byte[] receivedOn(long streamId) {
        ByteArrayOutputStream b = received.get(streamId);
        return b == null ? new byte[0] : b.toByteArray();
    }

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static byte[] frame(long type, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(H3FrameCodec.MAX_HEADER_SIZE + payload.length);
        H3FrameCodec.writeHeader(b, type, payload.length);
        b.put(payload);
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    static byte[] headers(List<HeaderField> fields) {
        return frame(FrameType.HEADERS, FieldSectionEncoder.encode(fields));
    }

    static byte[] request(String method, String path) {
        return headers(List.of(new HeaderField(":method", method), new HeaderField(":scheme", "https"),
                new HeaderField(":authority", "example.test"), new HeaderField(":path", path)));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
