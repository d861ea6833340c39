package org.pacelab.net.driver;

import java.time.Instant;

/**
 * The real-time driver's clock: model time is nanoseconds since the emulator started (System.nanoTime, i.e.
 * CLOCK_MONOTONIC); {@link #epochNanosOfZero()} is the wall-clock time of model time 0, read once at the start, which
 * stamps captures and event logs. Kernel receive timestamps (CLOCK_REALTIME) are not converted through it: a step of
 * the wall clock after the start would move them ({@link RealTimeDriver#arrivalTime(long, long, long, long)}).
 */
public final class ModelClock {
    private long monoZero;
    private long epochZero;

    /** Readings of the wall clock bracketed by two monotonic ones; the narrowest bracket is used. */
    private static final int READINGS = 16;

    public ModelClock() {
        // The midpoint of a bracket is off by up to half its width. The first Instant.now() loads java.time, and a
        // busy host may preempt the thread inside a bracket for tens of milliseconds — an error every kernel
        // timestamp converted with this clock would carry — so take the narrowest of several readings.
        long best = Long.MAX_VALUE;
        long mono = 0;
        long epoch = 0;
        Instant.now();
        for (int i = 0; i < READINGS; i++) {
            long before = System.nanoTime();
            Instant wall = Instant.now();
            long after = System.nanoTime();
            if (after - before < best) {
                best = after - before;
                mono = before + (after - before) / 2;
                epoch = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
            }
        }
        this.monoZero = mono;
        this.epochZero = epoch;
    }

    public long now() { return System.nanoTime() - monoZero; }

    /**
     * Moves model time forward by {@code nanos} at once (both the monotonic and the wall-clock origin, so kernel
     * timestamps stay consistent with it): a front-end's warm-up ({@link WarmUp}) fast-forwards its own copy of the
     * link this way instead of waiting for its events in real time. A running emulator's clock never skips.
     */
    public void skip(long nanos) {
        if (nanos < 0) throw new IllegalArgumentException("the model clock cannot go back (" + nanos + " ns)");
        monoZero -= nanos;
        epochZero -= nanos;
    }

    public long epochNanosOfZero() { return epochZero; }

    /** The wall clock now (CLOCK_REALTIME), ns since the epoch. */
    public static long wallNanos() {
        Instant wall = Instant.now();
        return wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
    }
}
