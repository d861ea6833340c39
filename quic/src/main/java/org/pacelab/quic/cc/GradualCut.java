package org.pacelab.quic.cc;

/**
 * A slow-start rule's window cut taken gradually, as RFC 6937's proportional rate reduction takes a congestion
 * event's (RFC 9002 §7.3.2 allows PRR for a reduction): from the bytes in flight at the cut (PRR's RecoverFS) the
 * window falls toward the rule's target as the packets sent before the cut are delivered, by (in flight − target) /
 * in flight of each byte delivered, so about target / in flight of a packet is sent per packet delivered (PRR's
 * {@code prr_delivered * ssthresh / RecoverFS}). It stops being gradual, and the window is the target, once it is
 * no longer above the rule's bound ({@link SlowStartExit#gradualCutAbove}) or at the first ACK of a packet sent
 * after the cut, a round after the cut, whichever comes first.
 *
 * <p>Why ({@link OnsetBdp}, onset-bdp-queue, with CUBIC): where the onset is seen a round late, the window at the cut
 * has already overflowed the buffer and part of what is in flight is lost but not yet declared (RFC 9002 §6.1: only
 * when packets sent after them are acknowledged, a round later). Cut at once, those losses still count in flight and
 * keep the sender silent until loss detection while the queue drains, and the link idles (1 Gbit/s × 10 ms × 0.5 BDP
 * in the simulator: 1,638 packets in flight of which 379 lost, a cut to 845.5, 8.3 ms without a send and the link
 * idle 3.3 ms; docs/benchmarks.md, issue 15). Taken gradually, the sender goes on at about half the ACK rate and the
 * queue drains at half the rate while the losses are found.
 */
final class GradualCut {
    private boolean active;
    private double from;
    private long target;
    private long bound;
    private long since;
    private long delivered;

    /** Whether a cut is under way. */
    boolean active() { return active; }

    /** The window the cut goes to. */
    long target() { return target; }

    /**
     * Starts a cut at {@code now} from {@code inFlight} bytes in flight to {@code target}, gradual while the window
     * stays above {@code bound} (at least the target, below the bytes in flight); the window to take now: the bytes
     * in flight, so nothing more is sent until packets are delivered.
     */
    long start(long now, long inFlight, long target, long bound) {
        active = true;
        this.from = inFlight;
        this.target = target;
        this.bound = bound;
        this.since = now;
        this.delivered = 0;
        return inFlight;
    }

    /**
     * The window after this ACK: the target, and the cut is over, once the gradual window is no longer above the bound
     * or the ACK acknowledges a packet sent after the cut.
     */
    long onAck(AckEvent ack) {
        boolean sentAfter = false;
        for (PacketInfo p : ack.acked()) {
            if (p.timeSent() <= since) {
                delivered += p.size();
            } else {
                sentAfter = true;
            }
        }
        long w = (long) (from - delivered * (from - target) / from);
        if (sentAfter || w <= bound) {
            active = false;
            return target;
        }
        return w;
    }

    /** Ends the cut early (a congestion event, persistent congestion); the controller takes the target or less. */
    void finish() {
        active = false;
    }
}
