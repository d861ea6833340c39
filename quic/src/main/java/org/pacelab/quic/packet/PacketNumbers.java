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

    /**
     * Writes the {@code len} least significant bytes of {@code pn} in network byte order. Byte by byte without a loop,
     * as {@link #put} and {@link #read}: the loop's limit check, compiled by C2 for the lengths seen so far, failed when
     * the length changed, and each failure discarded and recompiled the whole of {@code QuicConnection.send} into which
     * it was inlined (a sender's largest compilation: docs/benchmarks.md, "The JIT's share").
     */
    public static void write(ByteBuffer out, long pn, int len) {
        int at = out.position();
        put(out, at, pn, len);
        out.position(at + len);
    }

    /** Writes the truncated packet number at absolute index {@code at}. */
    public static void put(ByteBuffer out, int at, long pn, int len) {
        switch (len) {
            case 1 -> out.put(at, (byte) pn);
            case 2 -> {
                out.put(at, (byte) (pn >>> 8));
                out.put(at + 1, (byte) pn);
            }
            case 3 -> {
                out.put(at, (byte) (pn >>> 16));
                out.put(at + 1, (byte) (pn >>> 8));
                out.put(at + 2, (byte) pn);
            }
            case 4 -> {
                out.put(at, (byte) (pn >>> 24));
                out.put(at + 1, (byte) (pn >>> 16));
                out.put(at + 2, (byte) (pn >>> 8));
                out.put(at + 3, (byte) pn);
            }
            default -> throw badLength(len);
        }
    }

    /** Reads a {@code len}-byte truncated packet number at absolute index {@code at}. */
    public static long read(ByteBuffer in, int at, int len) {
        return switch (len) {
            case 1 -> in.get(at) & 0xffL;
            case 2 -> (in.get(at) & 0xffL) << 8 | in.get(at + 1) & 0xffL;
            case 3 -> (in.get(at) & 0xffL) << 16 | (in.get(at + 1) & 0xffL) << 8 | in.get(at + 2) & 0xffL;
            case 4 -> (in.get(at) & 0xffL) << 24 | (in.get(at + 1) & 0xffL) << 16 | (in.get(at + 2) & 0xffL) << 8
                    | in.get(at + 3) & 0xffL;
            default -> throw badLength(len);
        };
    }

    private static IllegalArgumentException badLength(int len) {
        return new IllegalArgumentException("packet number length must be 1..4 bytes, not " + len);
    }
}
