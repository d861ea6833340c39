package org.pacelab.quic.recovery;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.util.RangeSet;

/**
 * Everything one packet number space (RFC 9000 §12.3) keeps, in one place: what was received and when to
 * acknowledge it, the next packet number to send, the packets sent and not yet acknowledged with the RFC 9002
 * loss-detection state of the space, the probes a PTO asked for, and the ECN marks sent and counts reported in the
 * space. quinn keeps the same in its {@code PacketSpace} (connection/spaces.rs), ngtcp2 in {@code ngtcp2_pktns}.
 *
 * <p>The connection owns the three spaces; {@link LossDetector} reads and updates their loss-detection state,
 * {@link EcnValidator} their ECN counts.
 */
public final class PacketNumberSpace {
    public final PacketSpace id;
    /** What arrived in this space and when an ACK is due (RFC 9000 §13.2). */
    public final AckTracker received;
    private long nextPacketNumber;
    /** Probe packets a PTO asked for that are still to be sent (RFC 9002 §6.2.4). */
    private int probesToSend;

    // RFC 9002 §A.2, per space (LossDetector's state)
    final SentPacketLog sent = new SentPacketLog();
    /** Lost ack-eliciting packets kept a while to recognise spurious losses. */
    final SentPacketLog lost = new SentPacketLog();
    long largestAcked = -1;
    long timeOfLastAckEliciting;
    long lossTime;
    int ackElicitingInFlight;
    boolean discarded;
    /** The end of the CRYPTO data sent in this space so far (the largest offset + length). */
    private long cryptoSentEnd;
    /**
     * When a packet last carried CRYPTO data of this space that an earlier packet had carried (a copy: sent by a PTO,
     * after a loss, or early on the peer's probe, RFC 9002 §6.2.3), or {@link Long#MIN_VALUE}.
     */
    private long lastCryptoCopySent = Long.MIN_VALUE;

    // RFC 9000 §13.4.1–13.4.2, per space (EcnValidator's state; the validation's own state is the path's)
    /** Packets sent marked ECT(0) in this space. */
    long ecnMarkedSent;
    /** Numbers of the packets sent marked and not yet acknowledged or lost (a few runs). */
    final RangeSet ecnMarked = new RangeSet();
    /** The largest ECT(0) and CE counts the peer reported for this space. */
    long ecnLastEct0;
    long ecnLastCe;

    /**
     * @param ackElicitingThreshold for the application space, ack-eliciting packets received before an ACK is
     *                              sent at once (RFC 9000 §13.2.2); Initial and Handshake packets are
     *                              acknowledged at once (§13.2.1)
     * @param maxAckDelay           our max_ack_delay, ns
     */
    public PacketNumberSpace(PacketSpace id, int ackElicitingThreshold, long maxAckDelay) {
        this.id = id;
        boolean immediate = id != PacketSpace.APPLICATION;
        this.received = new AckTracker(immediate, immediate ? 1 : ackElicitingThreshold, maxAckDelay);
    }

    /** The three spaces, indexed by {@link PacketSpace#ordinal()}. */
    public static PacketNumberSpace[] all(int ackElicitingThreshold, long maxAckDelay) {
        PacketNumberSpace[] spaces = new PacketNumberSpace[PacketSpace.ALL.length];
        for (PacketSpace s : PacketSpace.ALL) {
            spaces[s.ordinal()] = new PacketNumberSpace(s, ackElicitingThreshold, maxAckDelay);
        }
        return spaces;
    }

    /** The packet number the next packet sent in this space gets. */
    public long nextPacketNumber() { return nextPacketNumber; }

    /** Returns the next packet number and advances it (a packet was sent with it). */
    public long takePacketNumber() { return nextPacketNumber++; }

    /** Largest packet number the peer acknowledged, or -1. */
    public long largestAcked() { return largestAcked; }

    /** Whether the space's keys were discarded (RFC 9002 §6.4). */
    public boolean isDiscarded() { return discarded; }

    public int ackElicitingInFlight() { return ackElicitingInFlight; }

    public int probesToSend() { return probesToSend; }

    /** A PTO asks for {@code n} probe packets in this space (at least; more pending ones are kept). */
    public void requestProbes(int n) {
        probesToSend = Math.max(probesToSend, n);
    }

    /** A probe packet went out. */
    public void onProbeSent() {
        probesToSend--;
    }

    /** No more probes in this space (its keys are gone). */
    public void cancelProbes() {
        probesToSend = 0;
    }

    /** Notes the CRYPTO data {@code p} carries: whether it is a copy of data sent before, and when it was sent. */
    void onCryptoSent(SentPacket p) {
        long before = cryptoSentEnd;
        for (Frame f : p.frames) {
            if (f instanceof CryptoDataSent c) {
                if (c.offset() < before) {
                    lastCryptoCopySent = p.timeSent;
                }
                cryptoSentEnd = Math.max(cryptoSentEnd, c.offset() + c.length());
            }
        }
    }

    /** When this space last sent a copy of CRYPTO data it had sent before, or {@link Long#MIN_VALUE} if never. */
    public long lastCryptoCopySent() { return lastCryptoCopySent; }

    /** Ack-eliciting packets in flight in this space, oldest first (used to choose PTO probe contents). */
    public List<SentPacket> unackedAckEliciting() {
        List<SentPacket> out = new ArrayList<>();
        sent.forEach(p -> {
            if (p.ackEliciting) {
                out.add(p);
            }
        });
        return out;
    }
}
