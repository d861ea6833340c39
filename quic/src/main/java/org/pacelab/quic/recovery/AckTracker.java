package org.pacelab.quic.recovery;

import java.util.Iterator;

import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.EcnCounts;
import org.pacelab.quic.util.RangeSet;

/**
 * The receive side of acknowledgments for one packet number space (RFC 9000 §13.2): which packet numbers
 * arrived, when an ACK is due, and the ACK frame to send.
 */
public final class AckTracker {
    /** At most this many ranges go into one ACK frame; older ranges are dropped (RFC 9000 §13.2.3). */
    private static final int MAX_RANGES = 64;

    private final boolean immediate;
    private final int ackElicitingThreshold;
    private final RangeSet received = new RangeSet();
    /** Packet numbers below this are treated as duplicates (their state was pruned). */
    private long floor;
    private long largest = -1;
    private long largestTime;
    private int unackedEliciting;
    private boolean ackNow;
    private long ackDeadline = Long.MAX_VALUE;
    private boolean changedSinceAck;
    /** ECN counts of the packets received in this space (RFC 9000 §13.4.1), reported once any was counted. */
    private long ect0;
    private long ect1;
    private long ce;
    private boolean ecnCounted;

    /**
     * @param immediate             acknowledge every ack-eliciting packet at once (Initial and Handshake
     *                              spaces, RFC 9000 §13.2.1)
     * @param ackElicitingThreshold send an ACK after this many ack-eliciting packets (RFC 9000 §13.2.2: 2)
     */
    public AckTracker(boolean immediate, int ackElicitingThreshold) {
        this.immediate = immediate;
        this.ackElicitingThreshold = Math.max(1, ackElicitingThreshold);
    }

    /** Whether this packet number was already received (a duplicate must be dropped, RFC 9000 §12.3). */
    public boolean isDuplicate(long pn) {
        return pn < floor || received.contains(pn);
    }

    /** Largest packet number received so far, or -1 (used to decode packet numbers, RFC 9000 §A.3). */
    public long largest() { return largest; }

    /**
     * Records a received packet.
     *
     * @param maxAckDelay our max_ack_delay, ns
     */
    public void onPacketReceived(long pn, boolean ackEliciting, long now, long maxAckDelay) {
        boolean outOfOrder = largest >= 0 && (pn < largest || pn > largest + 1);
        received.add(pn);
        received.trimToRanges(MAX_RANGES);
        if (pn > largest) {
            largest = pn;
            largestTime = now;
        }
        changedSinceAck = true;
        if (!ackEliciting) {
            return;
        }
        unackedEliciting++;
        // RFC 9000 §13.2.1: acknowledge Initial/Handshake immediately; 1-RTT after two ack-eliciting packets,
        // on reordering, or within max_ack_delay
        if (immediate || unackedEliciting >= ackElicitingThreshold || outOfOrder) {
            ackNow = true;
        } else if (ackDeadline == Long.MAX_VALUE) {
            ackDeadline = now + maxAckDelay;
        }
    }

    /** Whether an ACK must go out now. */
    public boolean ackDue(long now) {
        return ackNow || now >= ackDeadline;
    }

    /** When a delayed ACK is due, or {@link Long#MAX_VALUE}. */
    public long ackDeadline() {
        return ackNow ? Long.MIN_VALUE : ackDeadline;
    }

    /** Whether there is anything to acknowledge (for piggybacking an ACK on other frames). */
    public boolean hasNewAcks() {
        return changedSinceAck && largest >= 0;
    }

    /** Whether any packet was ever received in this space (an ACK may be sent). */
    public boolean hasReceived() {
        return largest >= 0 && !received.isEmpty();
    }

    /**
     * Counts the ECN codepoint of a packet just recorded (RFC 9000 §13.4.1: per packet, coalesced ones included; the
     * caller passes only packets it processed, not duplicates). From the first count on, ACK frames carry the counts
     * (type 0x03), Not-ECT packets included in none of them.
     */
    public void countEcn(int codepoint) {
        switch (codepoint & 3) {
            case 0b10 -> ect0++;
            case 0b01 -> ect1++;
            case 0b11 -> ce++;
            default -> { }
        }
        ecnCounted = true;
    }

    /** Builds the ACK frame describing what was received (RFC 9000 §19.3). */
    public AckFrame buildAck(long now, int ackDelayExponent) {
        long[] ranges = new long[received.rangeCount() * 2];
        int i = 0;
        Iterator<RangeSet.Range> it = received.descendingIterator();
        while (it.hasNext()) {
            RangeSet.Range r = it.next();
            ranges[i++] = r.end() - 1;
            ranges[i++] = r.start();
        }
        long delayNs = Math.max(0, now - largestTime);
        long encodedDelay = (delayNs / 1000) >> ackDelayExponent;
        return new AckFrame(ranges[0], encodedDelay, ranges, ecnCounted ? new EcnCounts(ect0, ect1, ce) : null);
    }

    /** An ACK frame was sent: the ACK timer and counters reset. */
    public void onAckSent() {
        unackedEliciting = 0;
        ackNow = false;
        ackDeadline = Long.MAX_VALUE;
        changedSinceAck = false;
    }

    /**
     * The peer acknowledged a packet that carried our ACK up to {@code largestAckedInAck}: ranges below it
     * need not be repeated (RFC 9000 §13.2.4).
     */
    public void onAckAcknowledged(long largestAckedInAck) {
        long newFloor = largestAckedInAck + 1;
        if (newFloor > floor) {
            floor = newFloor;
            received.removeBelow(newFloor);
        }
    }

    /** Forces an ACK at the next opportunity (e.g. a PTO probe or a received probe). */
    public void requestImmediateAck() {
        if (largest >= 0) {
            ackNow = true;
        }
    }
}
