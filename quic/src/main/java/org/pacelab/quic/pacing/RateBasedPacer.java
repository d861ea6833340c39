package org.pacelab.quic.pacing;

/**
 * What every rate-based pacer shares: the pacing rate and quantum from {@link #update}, the initial burst,
 * "no rate yet means no pacing", and the bookkeeping that gives each packet a meaningful intended send time.
 * Subclasses only decide when the next packet may leave ({@link #earliestRelease}) and account for a packet
 * that left ({@link #recordSend}).
 *
 * <h2>Contract with the connection</h2>
 * Before building a packet (after checking that it has data and congestion window for it) the connection
 * calls {@link #releaseTime(long, int) releaseTime(now, size)}:
 * <ul>
 *   <li>a result later than {@code now} means "blocked until then": the pacer remembers that time;</li>
 *   <li>otherwise the packet may leave now, and the result is its intended send time: the time this pacer
 *       had announced when it blocked the previous attempt, if that is earlier than {@code now} (so a runtime
 *       that wakes up late sees its lateness in {@code wire time - intended}), or {@code now} when the pacer
 *       did not hold the packet.</li>
 * </ul>
 * An announcement stands until a packet is sent or {@link #update} reports that nothing is in flight; a
 * connection that no longer wants to send after being told to wait (no data, window closed) should not
 * expect the later packet's intended time to be {@code now}.
 * The connection then calls {@link #onPacketSent(long, int) onPacketSent(intended, size)} with that result
 * (or a later time when its runtime sends ahead of time, e.g. with SO_TXTIME). The departure time of the
 * packet is taken as max(intended, the {@code now} of the preceding {@code releaseTime} call).
 *
 * <h2>Initial burst and unknown rate</h2>
 * While the rate is unknown (0, e.g. before the first RTT sample) nothing is paced. The first
 * {@code initialBurst} packets sent while a rate is known leave unpaced and are not charged to the pacer;
 * pacing starts with the next packet from an empty bucket (no credit, no tokens).
 */
public abstract sealed class RateBasedPacer implements Pacer permits LeakyBucketPacer, IntervalPacer, TokenBucketPacer {
    private int burstLeft;
    private PacingRate rate;
    private boolean blocked;
    private long blockedUntil;
    private boolean queried;
    private long lastQueryTime;

    /** @param initialBurst packets sent unpaced once a rate is known */
    protected RateBasedPacer(int initialBurst) {
        if (initialBurst < 0) {
            throw new IllegalArgumentException("initial burst must be at least 0 packets, got " + initialBurst);
        }
        this.burstLeft = initialBurst;
    }

    /** Packets of the initial burst still to be sent unpaced. */
    public int initialBurstLeft() { return burstLeft; }

    /** The last rate given to {@link #update}, or null. */
    public PacingRate rate() { return rate; }

    /** Whether packets are paced now (a rate is known and the initial burst is used up). */
    public boolean pacing() {
        return rate != null && rate.bytesPerSecond() > 0 && burstLeft == 0;
    }

    private boolean rateKnown() {
        return rate != null && rate.bytesPerSecond() > 0;
    }

    @Override
    public final long releaseTime(long now, int size) {
        queried = true;
        lastQueryTime = now;
        if (!pacing()) {
            blocked = false;
            return now;
        }
        long earliest = earliestRelease(now, size);
        if (earliest > now) {
            blocked = true;
            blockedUntil = earliest;
            return earliest;
        }
        return blocked ? Math.min(now, blockedUntil) : now;
    }

    @Override
    public final void onPacketSent(long intendedSendTime, int size) {
        blocked = false;
        if (!rateKnown()) {
            return;
        }
        if (burstLeft > 0) {
            burstLeft--;
            return;
        }
        long departure = queried ? Math.max(intendedSendTime, lastQueryTime) : intendedSendTime;
        recordSend(intendedSendTime, departure, size);
    }

    @Override
    public final void update(long now, PacingRate newRate) {
        PacingRate previous = rate;
        rate = newRate;
        if (newRate.idle()) {
            blocked = false;
        }
        if (newRate.bytesPerSecond() > 0) {
            rateChanged(now, previous != null && previous.bytesPerSecond() > 0 ? previous : null, newRate);
        }
    }

    /**
     * The earliest time a packet of {@code size} bytes may leave, given the state at {@code now}; any value at
     * or before {@code now} means "now".
     */
    protected abstract long earliestRelease(long now, int size);

    /**
     * A paced packet left.
     *
     * @param intended  its intended send time
     * @param departure when it actually left (at or after {@code intended})
     */
    protected abstract void recordSend(long intended, long departure, int size);

    /**
     * The rate or quantum changed (also called for the first known rate, with {@code previous} null).
     * {@link #rate()} already returns {@code current}.
     */
    protected abstract void rateChanged(long now, PacingRate previous, PacingRate current);
}
