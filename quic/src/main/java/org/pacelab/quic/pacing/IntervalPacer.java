package org.pacelab.quic.pacing;

/**
 * Pacing {@code interval}: earliest-departure-time pacing, as ngtcp2's
 * {@code ngtcp2_conn_update_pkt_tx_time} and quiche's pacer: packets leave in bursts of at most one quantum;
 * the burst after a burst of B bytes that started at time S may leave at S + B / rate.
 *
 * <p>A burst is open while another packet of the same size as the last one fits into the quantum; packets
 * of an open burst may leave at once. (With a quantum of one packet this is plain per-packet interval
 * pacing: next release = previous release + size / rate.)
 *
 * <h2>Lateness compensation</h2>
 * When the sender leaves later than the pacer allowed (the runtime woke up late), the schedule moves with
 * it: the next burst is due B / rate after the actual departure. The lateness is remembered in a
 * compensation account and paid back like ngtcp2 does: each later gap is shortened by
 * min(gap / 2, compensation), so the sender catches up on lost time at no more than twice the pacing rate.
 * Two limits differ from ngtcp2, which accrues any expiry of its pacing timer (idle periods included) and
 * never caps the account: here only lateness of a packet the pacer had actually held counts
 * (see {@link RateBasedPacer}), the account is capped at one smoothed RTT, and it is cleared when nothing is
 * in flight ({@link PacingRate#idle()}), so a stall or an idle period never turns into a catch-up burst.
 */
public final class IntervalPacer extends RateBasedPacer {
    private long nextRelease = Long.MIN_VALUE;
    private boolean burstOpen;
    private long burstStart;
    private long burstBytes;
    private long compensation;

    public IntervalPacer(int initialBurst) {
        super(initialBurst);
    }

    @Override
    public String name() { return "interval"; }

    /** The lateness still to be paid back, ns. */
    public long compensation() { return compensation; }

    /** When the next burst may start (ignoring an open burst). */
    public long nextRelease() { return nextRelease; }

    @Override
    protected long earliestRelease(long now, int size) {
        if (burstOpen) {
            if (burstBytes + size <= rate().quantum()) {
                return burstStart;
            }
            closeBurst();
        }
        return nextRelease;
    }

    @Override
    protected void recordSend(long intended, long departure, int size) {
        if (burstOpen && burstBytes + size > rate().quantum()) {
            closeBurst();
        }
        if (!burstOpen) {
            compensation = Math.min(compensation + (departure - intended), Math.max(rate().smoothedRtt(), 0));
            burstOpen = true;
            burstStart = departure;
            burstBytes = 0;
        }
        burstBytes += size;
        if (burstBytes + size > rate().quantum()) {
            closeBurst();
        }
    }

    private void closeBurst() {
        long gap = rate().transmissionTime(burstBytes);
        long paid = Math.min(gap / 2, compensation);
        compensation -= paid;
        nextRelease = burstStart + gap - paid;
        burstOpen = false;
        burstBytes = 0;
    }

    @Override
    protected void rateChanged(long now, PacingRate previous, PacingRate current) {
        if (current.idle()) {
            compensation = 0;
        }
    }
}
