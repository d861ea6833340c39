package org.pacelab.quic.packet;

import java.nio.ByteBuffer;

/** Packet number encoding and decoding, RFC 9000 §17.1 and Appendix A.2–A.3. */
public final class PacketNumbers {
    /** The largest packet number, 2^62-1 (RFC 9000 §12.3). */
    public static final long MAX = (1L << 62) - 1;

    private PacketNumbers() {
    }

    /**
     * Recovers a full packet number from its truncated encoding (RFC 9000 §A.3).
     *
     * @param largestPn     the largest packet number successfully processed in this space, -1 if none
     * @param truncatedPn   the value of the Packet Number field
     * @param pnLengthBytes the length of the Packet Number field, 1..4
     */
    public static long decode(long largestPn, long truncatedPn, int pnLengthBytes) {
        long expected = largestPn + 1;
        long window = 1L << (pnLengthBytes * 8);
        long halfWindow = window / 2;
        long mask = window - 1;
        long candidate = (expected & ~mask) | (truncatedPn & mask);
        if (candidate <= expected - halfWindow && candidate < (1L << 62) - window) {
            return candidate + window;
        }
        if (candidate > expected + halfWindow && candidate >= window) {
            return candidate - window;
        }
        return candidate;
    }

    /**
     * The number of bytes (1..4) to encode {@code pn} so that the receiver can decode it: enough bits
     * for twice the range of unacknowledged packets (RFC 9000 §17.1, §A.2).
     *
     * @param largestAcked the largest packet number acknowledged by the peer in this space, -1 if none
     */
    public static int encodedLength(long pn, long largestAcked) {
        long unacked = pn - largestAcked;
        if (unacked <= 0) {
            return 1;
        }
        int minBits = 64 - Long.numberOfLeadingZeros(unacked) + 1;
        int bytes = (minBits + 7) / 8;
        return Math.min(4, Math.max(1, bytes));
    }

    /** Writes the {@code len} least significant bytes of {@code pn} in network byte order. */
    public static void write(ByteBuffer out, long pn, int len) {
        checkLength(len);
        for (int shift = (len - 1) * 8; shift >= 0; shift -= 8) {
            out.put((byte) (pn >>> shift));
        }
    }

    /** Writes the truncated packet number at absolute index {@code at}. */
    public static void put(ByteBuffer out, int at, long pn, int len) {
        checkLength(len);
        for (int i = 0; i < len; i++) {
            out.put(at + i, (byte) (pn >>> ((len - 1 - i) * 8)));
        }
    }

    /** Reads a {@code len}-byte truncated packet number at absolute index {@code at}. */
    public static long read(ByteBuffer in, int at, int len) {
        checkLength(len);
        long v = 0;
        for (int i = 0; i < len; i++) {
            v = (v << 8) | (in.get(at + i) & 0xff);
        }
        return v;
    }

    private static void checkLength(int len) {
        if (len < 1 || len > 4) {
            throw new IllegalArgumentException("packet number length must be 1..4 bytes, not " + len);
        }
    }
}
