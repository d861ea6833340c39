package org.pacelab.quic.content;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The deterministic content of the synthetic {@code /bytes/N} bodies: byte {@code i} is byte {@code i % 8}
 * (most significant first) of the 64-bit word {@code mix(i / 8)}, where {@code mix} is a bijection. Every
 * aligned 8-byte word therefore differs from every other, so a receiver that checks the bytes against
 * their offsets detects any lost, duplicated or misplaced data at 8-byte granularity.
 */
public final class BytePattern {
    private BytePattern() {
    }

    /** The pattern byte at {@code offset}. */
    public static byte at(long offset) {
        return (byte) (mix(offset >>> 3) >>> (56 - 8 * (int) (offset & 7)));
    }

    /** Writes the {@code n} pattern bytes starting at {@code offset} into {@code dst}. */
    public static void fill(long offset, ByteBuffer dst, int n) {
        long o = offset;
        long end = offset + n;
        while (o < end && (o & 7) != 0) {
            dst.put(at(o++));
        }
        boolean bigEndian = dst.order() == ByteOrder.BIG_ENDIAN;
        while (end - o >= 8) {
            long w = mix(o >>> 3);
            dst.putLong(bigEndian ? w : Long.reverseBytes(w));
            o += 8;
        }
        while (o < end) {
            dst.put(at(o++));
        }
    }

    /**
     * Compares the remaining bytes of {@code data} (without moving its position) with the pattern at
     * {@code offset}.
     *
     * @return the stream offset of the first byte that differs, or -1 when all match
     */
    public static long firstMismatch(long offset, ByteBuffer data) {
        int p = data.position();
        for (int i = 0; i < data.remaining(); i++) {
            if (data.get(p + i) != at(offset + i)) {
                return offset + i;
            }
        }
        return -1;
    }

    /** A bijection on 64-bit words (the SplitMix64 finalizer), so distinct words never repeat. */
    private static long mix(long word) {
        long z = word * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
