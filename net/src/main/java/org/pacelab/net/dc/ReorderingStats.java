package org.pacelab.net.dc;

import org.HdrHistogram.Histogram;

/** What a reordering receiver did: counts, and the time packets were held (ns). */
public final class ReorderingStats {
    /** Data PDUs that reached the receiver (copies included). */
    public long received;
    /** Delivered to the client as they arrived (no gap before them). */
    public long deliveredAtOnce;
    /** Stored out of order because of a gap before them. */
    public long held;
    /** Held packets released because the gap before them filled. */
    public long releasedByArrival;
    /** Held packets released by a t-Reordering expiry. */
    public long releasedByTimer;
    /** Expiries of t-Reordering. */
    public long timerExpiries;
    /** COUNT values given up (never delivered) when t-Reordering expired: packets lost on the paths. */
    public long skipped;
    /** Discarded: that COUNT had already been received (the second copy of a duplicate). */
    public long duplicates;
    /** Discarded: below RX_DELIV and never received (it came after the timer had given up on it). */
    public long outdated;
    /** Most packets held at once. */
    public int maxHeld;
    /** How long held packets waited, ns. */
    public final Histogram holdNanos = new Histogram(3_600_000_000_000L, 3);

    /** Adds another receiver's counts into this one. */
    public void add(ReorderingStats o) {
        received += o.received;
        deliveredAtOnce += o.deliveredAtOnce;
        held += o.held;
        releasedByArrival += o.releasedByArrival;
        releasedByTimer += o.releasedByTimer;
        timerExpiries += o.timerExpiries;
        skipped += o.skipped;
        duplicates += o.duplicates;
        outdated += o.outdated;
        maxHeld = Math.max(maxHeld, o.maxHeld);
        holdNanos.add(o.holdNanos);
    }

    /** One line for an emulator's exit report. */
    public String format() {
        String hold = holdNanos.getTotalCount() == 0 ? "no packet held"
                : String.format("hold time p50 %.1f ms, p99 %.1f ms, max %.1f ms", holdNanos.getValueAtPercentile(50) / 1e6,
                holdNanos.getValueAtPercentile(99) / 1e6, holdNanos.getMaxValue() / 1e6);
        return String.format("reordering: %d received, %d delivered at once, %d held (%d released by arrival, %d by timer), "
                        + "%d timer expiries, %d COUNTs skipped, %d duplicates and %d outdated discarded, max %d held; %s%n",
                received, deliveredAtOnce, held, releasedByArrival, releasedByTimer, timerExpiries, skipped, duplicates,
                outdated, maxHeld, hold);
    }
}
