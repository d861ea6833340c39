package org.pacelab.quic.h3;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.pacelab.quic.wire.VarInt;

/** Encoding and payload decoding of HTTP/3 frames: Type, Length, Payload (RFC 9114 §7.1). */
public final class H3FrameCodec {
    /** The most bytes a frame header (two variable-length integers) takes. */
    public static final int MAX_HEADER_SIZE = 16;

    private H3FrameCodec() {
    }

    /** Writes a frame's Type and Length; the payload follows. */
    public static void writeHeader(ByteBuffer out, long type, long payloadLength) {
        VarInt.write(out, type);
        VarInt.write(out, payloadLength);
    }

    /** The whole frame, as a buffer ready to be read. */
    public static ByteBuffer encode(H3Frame frame) {
        ByteBuffer payload = ByteBuffer.allocate(payloadSize(frame));
        writePayload(frame, payload);
        payload.flip();
        ByteBuffer out = ByteBuffer.allocate(MAX_HEADER_SIZE + payload.remaining());
        writeHeader(out, frame.type(), payload.remaining());
        out.put(payload);
        return out.flip();
    }

    private static int payloadSize(H3Frame frame) {
        return switch (frame) {
            case H3Frame.Headers h -> h.fieldSection().length;
            case H3Frame.PushPromise p -> VarInt.size(p.pushId()) + p.fieldSection().length;
            case H3Frame.CancelPush c -> VarInt.size(c.pushId());
            case H3Frame.Goaway g -> VarInt.size(g.id());
            case H3Frame.MaxPushId m -> VarInt.size(m.pushId());
            case H3Frame.Settings s -> {
                int n = 0;
                for (H3Frame.Setting setting : s.settings()) {
                    n += VarInt.size(setting.id()) + VarInt.size(setting.value());
                }
                yield n;
            }
        };
    }

    private static void writePayload(H3Frame frame, ByteBuffer out) {
        switch (frame) {
            case H3Frame.Headers h -> out.put(h.fieldSection());
            case H3Frame.PushPromise p -> {
                VarInt.write(out, p.pushId());
                out.put(p.fieldSection());
            }
            case H3Frame.CancelPush c -> VarInt.write(out, c.pushId());
            case H3Frame.Goaway g -> VarInt.write(out, g.id());
            case H3Frame.MaxPushId m -> VarInt.write(out, m.pushId());
            case H3Frame.Settings s -> {
                for (H3Frame.Setting setting : s.settings()) {
                    VarInt.write(out, setting.id());
                    VarInt.write(out, setting.value());
                }
            }
        }
    }

    /**
     * Decodes the complete payload of a known frame type other than DATA ({@link FrameType#isKnown}).
     *
     * @throws H3Exception H3_FRAME_ERROR when fields are truncated or followed by extra bytes (§7.1),
     *                     H3_SETTINGS_ERROR for a reserved HTTP/2 or repeated setting (§7.2.4, §7.2.4.1)
     */
    public static H3Frame decodePayload(long type, ByteBuffer payload) throws H3Exception {
        if (type == FrameType.HEADERS) {
            return new H3Frame.Headers(remainingBytes(payload));
        } else if (type == FrameType.PUSH_PROMISE) {
            long pushId = readVarInt(payload, type, "Push ID");
            return new H3Frame.PushPromise(pushId, remainingBytes(payload));
        } else if (type == FrameType.CANCEL_PUSH) {
            return new H3Frame.CancelPush(readSingleVarInt(payload, type, "Push ID"));
        } else if (type == FrameType.GOAWAY) {
            return new H3Frame.Goaway(readSingleVarInt(payload, type, "Stream ID/Push ID"));
        } else if (type == FrameType.MAX_PUSH_ID) {
            return new H3Frame.MaxPushId(readSingleVarInt(payload, type, "Push ID"));
        } else if (type == FrameType.SETTINGS) {
            return decodeSettings(payload);
        }
        throw new IllegalArgumentException("not a frame type decoded whole: " + FrameType.name(type));
    }

    private static H3Frame.Settings decodeSettings(ByteBuffer payload) throws H3Exception {
        List<H3Frame.Setting> settings = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        while (payload.hasRemaining()) {
            int at = payload.position();
            long id = readVarInt(payload, FrameType.SETTINGS, "setting identifier");
            long value = readVarInt(payload, FrameType.SETTINGS, "setting value");
            if (SettingId.isHttp2Only(id)) {
                throw new H3Exception(H3Error.H3_SETTINGS_ERROR, "SETTINGS payload byte " + at + ": identifier 0x"
                        + Long.toHexString(id) + " is an HTTP/2 setting reserved in HTTP/3 (RFC 9114 §7.2.4.1)");
            }
            if (!seen.add(id)) {
                throw new H3Exception(H3Error.H3_SETTINGS_ERROR, "SETTINGS payload byte " + at + ": identifier 0x"
                        + Long.toHexString(id) + " occurs more than once (RFC 9114 §7.2.4)");
            }
            settings.add(new H3Frame.Setting(id, value));
        }
        return new H3Frame.Settings(settings);
    }

    private static long readSingleVarInt(ByteBuffer payload, long type, String field) throws H3Exception {
        long v = readVarInt(payload, type, field);
        if (payload.hasRemaining()) {
            throw new H3Exception(H3Error.H3_FRAME_ERROR, FrameType.name(type) + " payload has " + payload.remaining()
                    + " bytes after its " + field + " field (RFC 9114 §7.1)");
        }
        return v;
    }

    private static long readVarInt(ByteBuffer payload, long type, String field) throws H3Exception {
        int at = payload.position();
        long v = VarInt.readOrMinusOne(payload);
        if (v < 0) {
            throw truncated(type, field, at);
        }
        return v;
    }

    private static H3Exception truncated(long type, String field, int at) {
        return new H3Exception(H3Error.H3_FRAME_ERROR, FrameType.name(type) + " payload ends at byte " + at
                + " inside its " + field + " field (RFC 9114 §7.1)");
    }

    private static byte[] remainingBytes(ByteBuffer payload) {
        byte[] b = new byte[payload.remaining()];
        payload.get(b);
        return b;
    }
}
