package org.pacelab.quic.wire;

import java.nio.ByteBuffer;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;

/**
 * Variable-length integers, RFC 9000 §16: the two most significant bits of the first byte give the
 * encoded length (1, 2, 4 or 8 bytes), the remaining bits hold the value in network byte order.
 * Reads and writes are byte-wise, so the buffer's {@link java.nio.ByteOrder} does not matter.
 */
public final class VarInt {
    /** The largest value a variable-length integer can hold, 2^62-1. */
    public static final long MAX = (1L << 62) - 1;

    private VarInt() {
    }

    /**
     * Reads one variable-length integer at the buffer's position and advances past it.
     *
     * @throws QuicException FRAME_ENCODING_ERROR (frame type 0) when the buffer ends inside the integer
     */
    public static long read(ByteBuffer b) throws QuicException {
        return read(b, 0);
    }

    /**
     * Reads one variable-length integer; a truncation is reported as FRAME_ENCODING_ERROR naming
     * {@code frameType}.
     */
    public static long read(ByteBuffer b, long frameType) throws QuicException {
        int pos = b.position();
        int remaining = b.limit() - pos;
        if (remaining < 1) {
            throw truncated(pos, 1, remaining, frameType);
        }
        int first = b.get(pos) & 0xff;
        int len = 1 << (first >>> 6);
        if (remaining < len) {
            throw truncated(pos, len, remaining, frameType);
        }
        long v = first & 0x3f;
        for (int i = 1; i < len; i++) {
            v = (v << 8) | (b.get(pos + i) & 0xff);
        }
        b.position(pos + len);
        return v;
    }

    /** Reads an integer at the position, returning -1 instead of throwing when the buffer is too short. */
    public static long readOrMinusOne(ByteBuffer b) {
        int pos = b.position();
        if (pos >= b.limit()) {
            return -1;
        }
        int len = 1 << ((b.get(pos) & 0xff) >>> 6);
        if (b.limit() - pos < len) {
            return -1;
        }
        long v = b.get(pos) & 0x3f;
        for (int i = 1; i < len; i++) {
            v = (v << 8) | (b.get(pos + i) & 0xff);
        }
        b.position(pos + len);
        return v;
    }

    /** Writes {@code v} in the shortest encoding. */
    public static void write(ByteBuffer b, long v) {
        writeWithLength(b, v, size(v));
    }

    /** The number of bytes of the shortest encoding of {@code v} (1, 2, 4 or 8). */
    public static int size(long v) {
        if (v < 0 || v > MAX) {
            throw new IllegalArgumentException("variable-length integer out of range 0..2^62-1: " + v);
        }
        if (v < 0x40) {
            return 1;
        }
        if (v < 0x4000) {
            return 2;
        }
        if (v < 0x4000_0000L) {
            return 4;
        }
        return 8;
    }

    /**
     * Writes {@code v} using exactly {@code len} bytes (1, 2, 4 or 8), e.g. to reserve room for a
     * Length field that is patched later.
     */
    public static void writeWithLength(ByteBuffer b, long v, int len) {
        if (v < 0 || v > MAX) {
            throw new IllegalArgumentException("variable-length integer out of range 0..2^62-1: " + v);
        }
        long prefix;
        switch (len) {
            case 1 -> {
                check(v, 0x3f, len);
                prefix = 0;
            }
            case 2 -> {
                check(v, 0x3fff, len);
                prefix = 0x4000L;
            }
            case 4 -> {
                check(v, 0x3fff_ffffL, len);
                prefix = 0x8000_0000L;
            }
            case 8 -> prefix = 0xc000_0000_0000_0000L;
            default -> throw new IllegalArgumentException("variable-length integer length must be 1, 2, 4 or 8, not " + len);
        }
        long w = prefix | v;
        for (int shift = (len - 1) * 8; shift >= 0; shift -= 8) {
            b.put((byte) (w >>> shift));
        }
    }

    /** Writes {@code v} with {@code len} bytes at absolute index {@code at}, not moving the position. */
    public static void putWithLength(ByteBuffer b, int at, long v, int len) {
        int pos = b.position();
        b.position(at);
        writeWithLength(b, v, len);
        b.position(pos);
    }

    private static void check(long v, long max, int len) {
        if (v > max) {
            throw new IllegalArgumentException("value " + v + " does not fit a " + len + "-byte variable-length integer (max " + max + ")");
        }
    }

    private static QuicException truncated(int pos, int needed, int remaining, long frameType) {
        return new QuicException(TransportError.FRAME_ENCODING_ERROR, frameType,
                "variable-length integer at byte offset " + pos + " needs " + needed + " bytes but only "
                        + remaining + " remain");
    }
}
