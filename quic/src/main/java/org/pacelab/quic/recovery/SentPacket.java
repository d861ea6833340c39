package org.pacelab.quic.recovery;

import java.util.List;

import org.pacelab.quic.cc.PacketInfo;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.PacketSpace;

/**
 * What the sender remembers about a packet until it is acknowledged or declared lost
 * (RFC 9002 Appendix A.1.1), plus the connection's delivery state at send time that
 * delivery-rate estimation needs (draft-cheng-iccrg-delivery-rate-estimation §3.2).
 */
public final class SentPacket {
    public final PacketSpace space;
    public final long packetNumber;
    /** When the runtime was given the packet (ns); the send time used for RTT and loss. */
    public final long timeSent;
    /** The pacer's intended send time for this packet (ns). */
    public final long intendedSendTime;
    /** Bytes on the wire counted against congestion control (the UDP payload of this packet). */
    public final int size;
    public final boolean ackEliciting;
    public final boolean inFlight;
    /** Frames to reconsider on loss (RFC 9000 §13.3); never null. */
    public final List<Frame> frames;

    // Delivery-rate estimation state, set by DeliveryRateEstimator#onPacketSent.
    /** C.delivered when the packet was sent (bytes). */
    public long delivered;
    /** C.delivered_time when the packet was sent (ns). */
    public long deliveredTime;
    /** C.first_sent_time when the packet was sent (ns). */
    public long firstSentTime;
    /** Whether the connection was application-limited when the packet was sent. */
    public boolean isAppLimited;
    /** Bytes in flight just after this packet was sent (BBR's P.tx_in_flight). */
    public long txInFlight;
    /** Bytes declared lost on the connection before this packet was sent (BBR's P.lost). */
    public long lostBefore;

    /** Set when loss detection declares the packet lost (kept a while to detect spurious loss). */
    public boolean declaredLost;
    /** When loss was declared (ns), for forgetting lost packets after a while. */
    public long lostTime;

    public SentPacket(PacketSpace space, long packetNumber, long timeSent, long intendedSendTime, int size,
                      boolean ackEliciting, boolean inFlight, List<Frame> frames) {
        this.space = space;
        this.packetNumber = packetNumber;
        this.timeSent = timeSent;
        this.intendedSendTime = intendedSendTime;
        this.size = size;
        this.ackEliciting = ackEliciting;
        this.inFlight = inFlight;
        this.frames = frames;
    }

    /** What a congestion controller is told of this packet: the plain values, fixed since it was sent. */
    public PacketInfo info() {
        return new PacketInfo(space, packetNumber, timeSent, size, delivered, isAppLimited, txInFlight, lostBefore);
    }

    @Override
    public String toString() {
        return "SentPacket[" + space + " pn=" + packetNumber + " size=" + size + " t=" + timeSent + "]";
    }
}
