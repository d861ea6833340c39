package org.pacelab.net.link;

/**
 * Plays a {@link MahimahiTrace} like Mahimahi's link queue: each opportunity carries up to 1500 bytes; a packet
 * may be spread over several opportunities and leaves at the one that carries its last byte; bytes of an
 * opportunity left over after a packet go to the next queued packet, and are lost when the queue is empty
 * (unused opportunities do not accumulate). A packet can use an opportunity only if it arrived strictly before
 * it (Mahimahi processes the opportunities due at time t before it enqueues packets arriving at t).
 * The trace repeats with its period unless {@code repeat} is false; then packets left when it ends never leave.
 */
public final class TraceRateLimiter implements RateLimiter {
    private static final long MS = 1_000_000L;
    private final MahimahiTrace trace;
    private final boolean repeat;
    private final long periodNanos;
    private int index = -1;      // current opportunity, -1 before the first
    private long base;           // start of the current period in ns
    private long currentTime = Long.MIN_VALUE;
    private int currentLeft;     // bytes left in the current opportunity
    private boolean ended;
    private long opportunitiesUsed;

    /** @param start model time at which the trace's time 0 lies */
    public TraceRateLimiter(MahimahiTrace trace, boolean repeat, long start) {
        this.trace = trace;
        this.repeat = repeat;
        this.periodNanos = trace.periodMillis() * MS;
        this.base = start;
    }

    /** Moves to the next opportunity; false if the trace ended. */
    private boolean advance() {
        if (ended) return false;
        index++;
        if (index == trace.opportunities()) {
            if (!repeat) { ended = true; return false; }
            index = 0;
            base += periodNanos;
        }
        currentTime = base + trace.millisAt(index) * MS;
        currentLeft = MahimahiTrace.OPPORTUNITY_BYTES;
        opportunitiesUsed++;
        return true;
    }

    /** Skips whole periods that lie entirely before {@code t} (an idle link wastes them all). */
    private void skipPeriodsBefore(long t) {
        if (!repeat || index < 0) return;
        long endOfPeriod = base + periodNanos;
        if (t > endOfPeriod + periodNanos) {
            long k = (t - endOfPeriod) / periodNanos;
            base += k * periodNanos;
        }
    }

    @Override
    public long schedule(int bytes, long arrival, long headSince) {
        int remaining = bytes;
        if (currentLeft > 0 && currentTime > arrival && currentTime >= headSince && !ended) {
            int use = Math.min(currentLeft, remaining);
            currentLeft -= use;
            remaining -= use;
        }
        if (remaining > 0) skipPeriodsBefore(arrival);
        while (remaining > 0) {
            if (!advance()) return Long.MAX_VALUE;
            if (currentTime <= arrival) { currentLeft = 0; continue; } // wasted: the packet was not there yet
            int use = Math.min(currentLeft, remaining);
            currentLeft -= use;
            remaining -= use;
        }
        return currentTime;
    }

    /** Number of opportunities stepped through so far (used or wasted). */
    public long opportunitiesPassed() { return opportunitiesUsed; }

    @Override
    public long meanBitsPerSecond() { return trace.meanBitsPerSecond(); }
}
