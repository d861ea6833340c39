package org.pacelab.net.driver;

import java.time.Instant;

/**
 * The real-time driver's clock: model time is nanoseconds since the emulator started (System.nanoTime, i.e.
 * CLOCK_MONOTONIC); {@link #epochNanosOfZero()} is the wall-clock time of model time 0, used to convert kernel
 * receive timestamps (CLOCK_REALTIME) and to stamp captures.
 */
public final class ModelClock {
    private final long monoZero;
    private final long epochZero;

    public ModelClock() {
        long before = System.nanoTime();
        Instant wall = Instant.now();
        long after = System.nanoTime();
        this.monoZero = before + (after - before) / 2;
        this.epochZero = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
    }

    public long now() { return System.nanoTime() - monoZero; }

    public long epochNanosOfZero() { return epochZero; }

    /** Model time of a CLOCK_REALTIME timestamp in ns since the epoch. */
    public long fromEpochNanos(long epochNanos) { return epochNanos - epochZero; }
}
