package org.pacelab.net.dc;

/**
 * The client-side PDCP-like reordering receiver's configuration (3GPP TS 38.323).
 *
 * @param snBits             PDCP SN size in bits, 12 or 18 (pdcp-SN-SizeDL, TS 38.331); the reordering window is
 *                           2^(snBits − 1) COUNTs (TS 38.323 §7.2 Window_Size)
 * @param tReorderingNanos   the t-Reordering timer (§7.3); 0 releases a gap at once
 * @param outOfOrderDelivery deliver every packet as soon as it arrives (TS 38.323 §5.2.2.1 outOfOrderDelivery)
 *                           and only discard duplicates
 * @param holdLimit          in-order delivery where each packet is held at most {@code tReorderingNanos} after its
 *                           own arrival, instead of TS 38.323 §5.2.2's one timer per gap (started when the gap is
 *                           seen, restarted for the next gap only when it expires, so that a packet behind two gaps
 *                           may wait up to twice the timer): a receiver variant a testbed might implement, not the
 *                           specification's
 * @param singlePathInOrder  flows whose packets take one path only (mode a or b, or a split that uses one path) get
 *                           this receiver too, in order, as every NR bearer does unless outOfOrderDelivery is
 *                           configured (TS 38.323 §5.2.2; TS 38.331 PDCP-Config); false (the default): they pass
 *                           through, delivered as their path delivers them, so a loss on their path reaches their
 *                           transport at once
 */
public record ReorderingConfig(int snBits, long tReorderingNanos, boolean outOfOrderDelivery, boolean holdLimit,
                               boolean singlePathInOrder) {
    /** The study's receiver: 200 ms timer, in-order delivery; 18-bit SNs (the NR DRB size with the larger window). */
    public static final ReorderingConfig DEFAULT = new ReorderingConfig(18, 200_000_000L, false);

    public ReorderingConfig {
        if (snBits != 12 && snBits != 18) throw new IllegalArgumentException("PDCP SN size must be 12 or 18 bits");
        if (tReorderingNanos < 0) throw new IllegalArgumentException("t-Reordering must not be negative");
        if (outOfOrderDelivery && holdLimit) {
            throw new IllegalArgumentException("a hold limit applies to in-order delivery only, not to outOfOrderDelivery");
        }
        if (outOfOrderDelivery && singlePathInOrder) {
            throw new IllegalArgumentException("single-path flows can be held in order only by an in-order receiver, "
                    + "not with outOfOrderDelivery");
        }
    }

    /** Single-path flows pass through (see {@link #singlePathInOrder()}). */
    public ReorderingConfig(int snBits, long tReorderingNanos, boolean outOfOrderDelivery, boolean holdLimit) {
        this(snBits, tReorderingNanos, outOfOrderDelivery, holdLimit, false);
    }

    /** TS 38.323 §5.2.2's receiver (one t-Reordering per gap), or out-of-order delivery; single-path flows pass through. */
    public ReorderingConfig(int snBits, long tReorderingNanos, boolean outOfOrderDelivery) {
        this(snBits, tReorderingNanos, outOfOrderDelivery, false);
    }

    /** Window_Size of TS 38.323 §7.2. */
    public long windowSize() { return 1L << (snBits - 1); }
}
