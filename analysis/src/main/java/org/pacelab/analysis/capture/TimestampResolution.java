package org.pacelab.analysis.capture;

/**
 * Converts pcapng timestamps in units of an interface's {@code if_tsresol} to nanoseconds
 * (RFC draft-ietf-opsawg-pcapng §4.2: the most significant bit selects a power of 2, otherwise of 10).
 */
record TimestampResolution(boolean binary, int exponent, long offsetSeconds) {
    static final TimestampResolution MICROSECONDS = new TimestampResolution(false, 6, 0);

    /** Parses the option byte; returns null when the resolution cannot be represented. */
    static TimestampResolution ofOption(int tsresol, long offsetSeconds) {
        boolean binary = (tsresol & 0x80) != 0;
        int exponent = tsresol & 0x7f;
        if (binary ? exponent > 63 : exponent > 18) {
            return null;
        }
        return new TimestampResolution(binary, exponent, offsetSeconds);
    }

    long toNanos(long units) {
        long ns;
        if (binary) {
            if (exponent == 0) {
                ns = units * 1_000_000_000L;
            } else {
                long whole = units >>> exponent;
                long frac = units & ((1L << exponent) - 1);
                // frac * 1e9 / 2^exponent, with the product kept in 128 bits
                long hi = Math.multiplyHigh(frac, 1_000_000_000L);
                long lo = frac * 1_000_000_000L;
                ns = whole * 1_000_000_000L + ((lo >>> exponent) | (hi << (64 - exponent)));
            }
        } else if (exponent <= 9) {
            ns = units * POW10[9 - exponent];
        } else {
            ns = units / POW10[exponent - 9];
        }
        return ns + offsetSeconds * 1_000_000_000L;
    }

    private static final long[] POW10 = {
            1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L,
            10_000_000_000L,
    };
}
