package org.pacelab.net.link;

/**
 * Exact conversion of bytes into transmission time at a fixed bit rate. The fractional nanoseconds of each
 * conversion are carried into the next one, so the time for any number of consecutive packets is exact to
 * within one nanosecond and a long run never drifts from the configured rate.
 */
final class ByteTime {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private final long bitsPerSecond;
    private long remainder; // in units of 1/bitsPerSecond nanoseconds, 0 <= remainder < bitsPerSecond

    ByteTime(long bitsPerSecond) {
        if (bitsPerSecond <= 0) throw new IllegalArgumentException("rate must be positive");
        this.bitsPerSecond = bitsPerSecond;
    }

    /** Nanoseconds to transmit {@code bytes} directly after the previous conversion. */
    long nanosFor(long bytes) {
        long numerator = bytes * 8L * NANOS_PER_SECOND + remainder;
        remainder = numerator % bitsPerSecond;
        return numerator / bitsPerSecond;
    }

    /** Forgets the carried fraction (the link went idle). */
    void reset() { remainder = 0; }

    long bitsPerSecond() { return bitsPerSecond; }
}
