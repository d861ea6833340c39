package org.pacelab.quic.pacing;

/** Drives a pacer like a connection does: ask, then send at the returned time. */
final class PacerScript {
    static final long US = 1_000L;
    static final long MS = 1_000_000L;

    private final Pacer pacer;

    PacerScript(Pacer pacer) {
        this.pacer = pacer;
    }

    /** A rate of {@code bytesPerSecond} with the given quantum, srtt 100 ms, not idle. */
    static PacingRate rate(long bytesPerSecond, long quantum) {
        return new PacingRate(bytesPerSecond, quantum, 100_000, 100 * MS, false);
    }

    void update(long now, PacingRate r) {
        pacer.update(now, r);
    }

    /** Asks at {@code now}; returns the answer (blocked-until time or intended send time). */
    long ask(long now, int size) {
        return pacer.releaseTime(now, size);
    }

    /** Asks at {@code now} and, if allowed, sends; returns the intended send time, or -1 when blocked. */
    long trySend(long now, int size) {
        long t = pacer.releaseTime(now, size);
        if (t > now) {
            return -1;
        }
        pacer.onPacketSent(t, size);
        return t;
    }

    /** A punctual sender: asks at {@code now}, waits exactly until allowed, sends; returns the send time. */
    long sendNext(long now, int size) {
        long t = pacer.releaseTime(now, size);
        if (t > now) {
            long again = pacer.releaseTime(t, size);
            if (again != t) {
                throw new AssertionError("pacer moved its release time from " + t + " to " + again);
            }
        }
        pacer.onPacketSent(t, size);
        return t;
    }
}
