package org.pacelab.quic.h3;

import java.nio.ByteBuffer;

/** Writing QUIC variable-length integers (RFC 9000 §16), which HTTP/3 uses for frame and stream fields. */
final class VarInts {
    static final long MAX = (1L << 62) - 1;

    private VarInts() {
    }

    static int size(long v) {
        if (v < 0 || v > MAX) {
            throw new IllegalArgumentException("variable-length integer out of range 0..2^62-1: " + v);
        }
        return v < 0x40 ? 1 : v < 0x4000 ? 2 : v < 0x4000_0000L ? 4 : 8;
    }

    /** Writes {@code v} in its shortest encoding, byte by byte (so the buffer's byte order does not matter). */
    static void write(ByteBuffer out, long v) {
        int len = size(v);
        long w = v | ((long) Integer.numberOfTrailingZeros(len) << (8 * len - 2));
        for (int shift = 8 * (len - 1); shift >= 0; shift -= 8) {
            out.put((byte) (w >>> shift));
        }
    }
}
