package org.pacelab.quic.pacing;

/**
 * Pacing {@code leaky-bucket}: a bucket of sending credit measured in time, as picoquic's pacing.c.
 *
 * <p>Credit grows by one nanosecond per nanosecond of elapsed time, up to the bucket's size, the time the
 * quantum takes at the pacing rate (quantum / rate): after an idle period the sender may burst one quantum.
 * A packet of {@code size} bytes costs size / rate of credit and may leave once the credit covers that
 * cost; it then may take the credit below zero, down to minus one packet's cost. Credit is kept in time, so
 * a rate change rescales what the stored credit is worth (picoquic does the same); the bucket is clipped to
 * the new size. Unlike picoquic there is no "packet train" mode (waiting for a full bucket); the bucket
 * starts empty once a rate is known (see {@link RateBasedPacer} for the initial burst).
 */
public final class LeakyBucketPacer extends RateBasedPacer {
    private boolean started;
    private long credit;
    private long maxCredit;
    private long lastUpdate;

    public LeakyBucketPacer(int initialBurst) {
        super(initialBurst);
    }

    @Override
    public String name() { return "leaky-bucket"; }

    /** Current credit in ns (may be negative). */
    public long credit() { return credit; }

    /** Bucket size in ns: the quantum's transmission time. */
    public long maxCredit() { return maxCredit; }

    private void refill(long now) {
        if (now > lastUpdate) {
            credit = Math.min(maxCredit, credit + (now - lastUpdate));
            lastUpdate = now;
        }
    }

    @Override
    protected long earliestRelease(long now, int size) {
        refill(now);
        long cost = Math.min(rate().transmissionTime(size), maxCredit);
        if (credit >= cost) {
            return now;
        }
        return now + (cost - credit);
    }

    @Override
    protected void recordSend(long intended, long departure, int size) {
        refill(departure);
        long cost = rate().transmissionTime(size);
        credit = Math.max(credit - cost, -cost);
    }

    @Override
    protected void rateChanged(long now, PacingRate previous, PacingRate current) {
        if (!started) {
            started = true;
            lastUpdate = now;
            credit = 0;
        } else {
            refill(now);
        }
        maxCredit = current.transmissionTime(current.quantum());
        credit = Math.min(credit, maxCredit);
    }
}
