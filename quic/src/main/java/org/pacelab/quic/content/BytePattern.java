package org.pacelab.quic.content;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The deterministic content of the synthetic {@code /bytes/N} bodies: byte {@code i} is byte {@code i % 8}
 * (most significant first) of the 64-bit word {@code mix(i / 8)}, where {@code mix} is a bijection. Every
 * aligned 8-byte word therefore differs from every other, so a receiver that checks the bytes against
 * their offsets detects any lost, duplicated or misplaced data at 8-byte granularity. The bijection is
 * kept cheap (two operations per word) because a server generates every body byte on the fly.
 */
public final class BytePattern {
    private static final java.lang.invoke.VarHandle LONG_BE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

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
        if (dst.hasArray()) {
            // straight into the backing array: no per-word bounds checks of the ByteBuffer
            byte[] a = dst.array();
            int p = dst.arrayOffset() + dst.position();
            int words = (int) ((end - o) >>> 3);
            if (words > 0 && p + 8L * words <= a.length) {
                for (int i = 0; i < words; i++) {
                    LONG_BE.set(a, p, mix(o >>> 3));
                    p += 8;
                    o += 8;
                }
                dst.position(p - dst.arrayOffset());
            }
        }
        if (end - o >= 8) {
            // a direct buffer: words written in the native (little-endian) order, byte-swapped here, so that the
            // buffer's own conversion is a no-op; a big-endian putLong cost ~7 % of a C1-compiled simulation's main
            // thread, where the conversion is not inlined (docs/benchmarks.md, "Simulator"). Same bytes either way.
            boolean swap = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
            ByteBuffer d = dst.order() == ByteOrder.nativeOrder() ? dst : dst.duplicate().order(ByteOrder.nativeOrder());
            while (end - o >= 8) {
                long w = mix(o >>> 3);
                d.putLong(swap ? Long.reverseBytes(w) : w);
                o += 8;
            }
            dst.position(d.position());
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

    /**
     * A bijection on 64-bit words, so distinct words never repeat: multiplication by an odd constant
     * (invertible modulo 2^64) followed by an xor-shift (also invertible).
     */
    private static long mix(long word) {
        long z = word * 0x9E3779B97F4A7C15L;
        return z ^ (z >>> 29);
    }
}
