package org.pacelab.quic.h3.qpack;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * Prefixed integers, RFC 7541 §5.1 as used by QPACK (RFC 9204 §4.1.1): the value fills the low
 * {@code prefixBits} of the first byte; when it does not fit, the prefix is all ones and the rest follows
 * in 7-bit groups, least significant first, with the high bit marking continuation.
 */
final class PrefixedInteger {
    /** Values above this are refused: QPACK never needs more than 62 bits (RFC 9204 §4.1.1). */
    static final long MAX = (1L << 62) - 1;

    private PrefixedInteger() {
    }

    /** Writes {@code value} with the high bits of the first byte set to {@code flags}. */
    static void write(ByteArrayOutputStream out, int flags, int prefixBits, long value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(flags | (int) value);
            return;
        }
        out.write(flags | max);
        long rest = value - max;
        while (rest >= 0x80) {
            out.write((int) ((rest & 0x7f) | 0x80));
            rest >>>= 7;
        }
        out.write((int) rest);
    }

    /**
     * Reads an integer whose first byte is at the buffer's position, ignoring the bits above the prefix.
     *
     * @param start offset of the field section's first byte, to report positions relative to it
     */
    static long read(ByteBuffer in, int prefixBits, int start, QpackError error, String what) throws QpackException {
        int at = in.position();
        if (!in.hasRemaining()) {
            throw new QpackException(error, what + " at byte " + (at - start) + " is missing: the input ends there");
        }
        int max = (1 << prefixBits) - 1;
        long value = in.get() & max;
        if (value < max) {
            return value;
        }
        int shift = 0;
        while (true) {
            if (!in.hasRemaining()) {
                throw new QpackException(error, what + " starting at byte " + (at - start)
                        + " is truncated: the input ends inside its continuation bytes");
            }
            int b = in.get() & 0xff;
            if (shift > 56) {
                throw new QpackException(error, what + " starting at byte " + (at - start)
                        + " is longer than 62 bits");
            }
            long add = (long) (b & 0x7f) << shift;
            // compared before adding: at shift 56 the sum can pass Long.MAX_VALUE and wrap negative
            if (add > MAX - value) {
                throw new QpackException(error, what + " starting at byte " + (at - start)
                        + " exceeds 2^62-1");
            }
            value += add;
            if ((b & 0x80) == 0) {
                return value;
            }
            shift += 7;
        }
    }
}
