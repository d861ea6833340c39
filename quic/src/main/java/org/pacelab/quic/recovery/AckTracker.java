package org.pacelab.quic.recovery;

import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.EcnCounts;

/**
 * The receive side of acknowledgments for one packet number space (RFC 9000 §13.2): which packet numbers
 * arrived, when an ACK is due, and the ACK frame to send. The peer may change when ACKs are due with
 * ACK_FREQUENCY and ask for one at once with IMMEDIATE_ACK (draft-ietf-quic-ack-frequency §4–§6).
 */
public final class AckTracker {
    /** At most this many ranges go into one ACK frame; older ranges are dropped (RFC 9000 §13.2.3). */
    private static final int MAX_RANGES = 64;

    private final boolean immediate;
    /** An ACK is sent once this many ack-eliciting packets arrived unacknowledged (the draft's threshold + 1). */
    private int ackElicitingThreshold;
    /** How long an ACK may wait (our max_ack_delay, or what the peer's ACK_FREQUENCY asked for), ns. */
    private long maxAckDelay;
    /**
     * Out-of-order packets that elicit an immediate ACK: 1 is RFC 9000 §13.2.1 (any), 0 none, more the
     * draft's rule (a gap this many packets behind the largest received).
     */
    private long reorderingThreshold = 1;
    /** Largest packet number in the last ACK sent, or -1. */
    private long largestAcked = -1;
    /** Sequence number of the ACK_FREQUENCY frame in force, or -1. */
    private long ackFrequencySequence = -1;
    private final ReceivedPacketNumbers received = new ReceivedPacketNumbers(MAX_RANGES);
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
     * @param maxAckDelay           our max_ack_delay, ns
     */
    public AckTracker(boolean immediate, int ackElicitingThreshold, long maxAckDelay) {
        this.immediate = immediate;
        this.ackElicitingThreshold = Math.max(1, ackElicitingThreshold);
        this.maxAckDelay = maxAckDelay;
    }

    /**
     * The peer's ACK_FREQUENCY (draft-ietf-quic-ack-frequency §4, §6): from now on an ACK is due after more than
     * {@code threshold} ack-eliciting packets, or {@code maxAckDelay} after the first one, and out-of-order
     * packets elicit an immediate ACK by {@code reorderingThreshold}. A frame whose sequence number is not above
     * the largest seen is ignored (§4.1); returns whether this one was applied.
     */
    public boolean onAckFrequency(long sequenceNumber, long threshold, long maxAckDelay, long reorderingThreshold) {
        if (sequenceNumber <= ackFrequencySequence) {
            return false;
        }
        ackFrequencySequence = sequenceNumber;
        this.ackElicitingThreshold = (int) Math.min(Integer.MAX_VALUE, threshold + 1);
        this.maxAckDelay = maxAckDelay;
        this.reorderingThreshold = reorderingThreshold;
        if (unackedEliciting >= ackElicitingThreshold) {
            ackNow = true;
        }
        return true;
    }

    /** Ack-eliciting packets that make an ACK due at once (the draft's Ack-Eliciting Threshold + 1). */
    public int ackElicitingThreshold() { return ackElicitingThreshold; }

    public long maxAckDelay() { return maxAckDelay; }

    /** Whether this packet number was already received (a duplicate must be dropped, RFC 9000 §12.3). */
    public boolean isDuplicate(long pn) {
        return pn < floor || received.contains(pn);
    }

    /** Largest packet number received so far, or -1 (used to decode packet numbers, RFC 9000 §A.3). */
    public long largest() { return largest; }

    /** Records a received packet. */
    public void onPacketReceived(long pn, boolean ackEliciting, long now) {
        boolean outOfOrder = largest >= 0 && (pn < largest || pn > largest + 1);
        received.add(pn);
        // RFC 9000 §12.3: what the ranges no longer hold (§13.2.3) must not be taken for new packets
        floor = Math.max(floor, received.droppedBelow());
        if (pn > largest) {
            largest = pn;
            largestTime = now;
        }
        // RFC 9000 §13.2.1: "When only non-ack-eliciting packets need to be acknowledged, an endpoint MAY choose not to
        // send an ACK frame with outgoing frames until an ack-eliciting packet has been received." In the application
        // space a sender's packets carry no ACK for the receiver's ACK-only packets (they are in the ranges of its next
        // ACK): acknowledging each of them cost a bulk sender an ACK frame in about 40 % of its full-size packets,
        // 8-11 bytes each (0.2-0.3 % of the wire bytes; quic-steps, 100 MiB: 28,811 frames in the simulator, 31,453 on
        // the relay, where the real-time ACK Delay field is longer).
        // Initial and Handshake spaces acknowledge every packet as before.
        if (ackEliciting || immediate) {
            changedSinceAck = true;
        }
        if (!ackEliciting) {
            return;
        }
        unackedEliciting++;
        // RFC 9000 §13.2.1: acknowledge Initial/Handshake immediately; 1-RTT after two ack-eliciting packets,
        // on reordering, or within max_ack_delay (or as the peer's ACK_FREQUENCY asked)
        if (immediate || unackedEliciting >= ackElicitingThreshold || reorderingCallsForAck(outOfOrder)) {
            ackNow = true;
        } else if (ackDeadline == Long.MAX_VALUE) {
            ackDeadline = now + maxAckDelay;
        }
    }

    /**
     * Whether reordering calls for an immediate ACK. Threshold 1: any packet out of order (RFC 9000 §13.2.1);
     * 0: never; more: a packet still missing that lies that many packets behind the largest received and above
     * what the last ACK let the sender declare lost (draft-ietf-quic-ack-frequency §6.2).
     */
    private boolean reorderingCallsForAck(boolean outOfOrder) {
        if (reorderingThreshold <= 1) {
            return reorderingThreshold == 1 && outOfOrder;
        }
        long largestReported = Math.max(floor, largestAcked - reorderingThreshold + 1);
        long smallestMissing = received.contiguousEnd(Math.max(0, largestReported));
        return smallestMissing < largest && largest - smallestMissing >= reorderingThreshold;
    }

    /** Whether an ACK must go out now. */
    public boolean ackDue(long now) {
        return ackNow || now >= ackDeadline;
    }

    /** When a delayed ACK is due, or {@link Long#MAX_VALUE}. */
    public long ackDeadline() {
        return ackNow ? Long.MIN_VALUE : ackDeadline;
    }

    /**
     * Whether an ACK is worth piggybacking on other frames: an ack-eliciting packet arrived since the last ACK (in the
     * Initial and Handshake spaces any packet), or the last ACK was lost ({@link #onAckLost}).
     */
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

    /**
     * Builds the ACK frame describing what was received (RFC 9000 §19.3), its ACK Delay the time since the largest
     * packet arrived, scaled by our {@code ackDelayExponent}.
     */
    public AckFrame buildAck(long now, int ackDelayExponent) {
        long delayNs = Math.max(0, now - largestTime);
        return ackFrame((delayNs / 1000) >> ackDelayExponent);
    }

    /**
     * Builds the ACK frame of an Initial or Handshake packet: its ACK Delay is 0, because the receiver does not use
     * it in these spaces and so "a sender SHOULD send a value of 0" (RFC 9000 §19.3; RFC 9002 §5.3), as ngtcp2 does.
     * Any other value would also be read with an exponent the peer chooses: ack_delay_exponent is a transport
     * parameter, and these packets may be read before it is known.
     */
    public AckFrame buildHandshakeAck() {
        return ackFrame(0);
    }

    private AckFrame ackFrame(long encodedDelay) {
        long[] ranges = received.descendingBounds();
        return new AckFrame(ranges[0], encodedDelay, ranges, ecnCounted ? new EcnCounts(ect0, ect1, ce) : null);
    }

    /** An ACK frame was sent: the ACK timer and counters reset. */
    public void onAckSent() {
        largestAcked = largest;
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

    /**
     * A packet that carried one of our ACK frames was lost, or its data is going out again in a probe: in the
     * application space the next packet piggybacks the current ACK (RFC 9000 §13.3: a lost ACK frame is not resent as
     * it was; newer acknowledgments go in a new one), instead of leaving the peer without it until another packet
     * arrives. Behind the runner's 30 % loss a server's lost ACK of gtlsclient's request, not repeated on the
     * retransmitted response, left the client's request unacknowledged and its connection idling out after the download.
     * <p>
     * Not in the Initial and Handshake spaces: there every ack-eliciting packet is acknowledged at once (RFC 9000
     * §13.2.1), so the peer's next packet brings a fresh ACK, while the old one, repeated in a probe seconds later,
     * acknowledges nothing new and carries the whole wait as its ACK Delay, which peers ignore in these spaces (RFC 9002
     * §5.3 allows it for Initial; pacelab, quinn, ngtcp2 and quic-go ignore it in both) and cannot subtract from a first
     * sample anyway (§5.2, §5.3). RFC 9000 §13.3: "resending old ACK frames can cause the peer to generate an inflated
     * RTT sample". handshakeloss pacelab → pacelab (issue 16): the server's probes repeated its lost ACK of the client's
     * first two Initials, the one that got through made the client's first RTT sample 5.06 s and its PTO 15 s, and the
     * server idled out before the client's Finished got through. ngtcp2 ({@code ngtcp2_acktr_create_ack_frame}: only
     * when ack-eliciting packets arrived since the last ACK) and quinn ({@code PendingAcks::can_send}) do not repeat it.
     */
    public void onAckLost() {
        if (!immediate && largest >= 0 && !received.isEmpty()) {
            changedSinceAck = true;
        }
    }

    /** Forces an ACK at the next opportunity (e.g. a PTO probe or a received probe). */
    public void requestImmediateAck() {
        if (largest >= 0) {
            ackNow = true;
        }
    }
}
