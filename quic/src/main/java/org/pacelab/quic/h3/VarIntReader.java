package org.pacelab.quic.h3;

import java.nio.ByteBuffer;

/** Reads one QUIC variable-length integer (RFC 9000 §16) from data that may arrive a byte at a time. */
final class VarIntReader {
    private int needed;
    private int have;
    private long value;

    /**
     * Consumes bytes until the integer is complete or {@code in} is empty.
     *
     * @return whether the integer is complete; its value is then {@link #value()} and the reader is reset
     */
    boolean read(ByteBuffer in) {
        while (in.hasRemaining()) {
            int b = in.get() & 0xff;
            if (have == 0) {
                needed = 1 << (b >>> 6);
                value = b & 0x3f;
            } else {
                value = (value << 8) | b;
            }
            if (++have == needed) {
                have = 0;
                return true;
            }
        }
        return false;
    }

    long value() {
        return value;
    }

    /** Whether some but not all bytes of an integer have been read. */
    boolean inProgress() {
        return have > 0;
    }
}
