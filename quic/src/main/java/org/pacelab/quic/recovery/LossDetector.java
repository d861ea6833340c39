package org.pacelab.quic.recovery;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.packet.PacketSpace;

/**
 * Loss detection and the probe timeout, RFC 9002 §6 and Appendix A, over the three packet number spaces.
 * It tracks sent packets (in each {@link PacketNumberSpace}), turns ACK frames into newly acknowledged and lost
 * packets, and computes when the loss detection timer fires. It does not touch congestion control;
 * {@link Recovery} feeds that.
 */
public final class LossDetector {
    /** RFC 9002 §6.1.1: kPacketThreshold. */
    public static final int PACKET_THRESHOLD = 3;
    /** RFC 9002 §6.1.2: kTimeThreshold = 9/8. */
    public static final long TIME_THRESHOLD_NUM = 9;
    public static final long TIME_THRESHOLD_DEN = 8;
    /** RFC 9002 §7.6.1: kPersistentCongestionThreshold. */
    public static final int PERSISTENT_CONGESTION_THRESHOLD = 3;

    private final RttEstimator rtt;
    private final PacketNumberSpace[] spaces;
    private int ptoCount;
    private long bytesInFlight;

    /** @param spaces the connection's packet number spaces, indexed by {@link PacketSpace#ordinal()} */
    public LossDetector(RttEstimator rtt, PacketNumberSpace[] spaces) {
        this.rtt = rtt;
        this.spaces = spaces;
    }

    /** A detector over spaces of its own (for tests of loss detection alone). */
    public LossDetector(RttEstimator rtt) {
        this(rtt, PacketNumberSpace.all(2, 25_000_000L));
    }

    public PacketNumberSpace space(PacketSpace id) { return spaces[id.ordinal()]; }

    public RttEstimator rtt() { return rtt; }

    public long bytesInFlight() { return bytesInFlight; }

    public int ptoCount() { return ptoCount; }

    public long largestAcked(PacketSpace space) { return spaces[space.ordinal()].largestAcked; }

    /** RFC 9002 §A.5 OnPacketSent. */
    public void onPacketSent(SentPacket p) {
        PacketNumberSpace s = spaces[p.space.ordinal()];
        s.sent.add(p);
        if (p.space != PacketSpace.APPLICATION) {
            // CRYPTO data only matters here in the handshake spaces (the 1-RTT space's CRYPTO is rare: not looked for)
            s.onCryptoSent(p);
        }
        if (p.inFlight) {
            if (p.ackEliciting) {
                s.timeOfLastAckEliciting = p.timeSent;
                s.ackElicitingInFlight++;
            }
            bytesInFlight += p.size;
        }
    }

    /** Outcome of processing one ACK frame. */
    public record AckResult(List<SentPacket> newlyAcked, List<SentPacket> lost, List<SentPacket> spuriouslyLost,
                            boolean rttSampled, boolean persistentCongestion) {
        static final AckResult NONE = new AckResult(List.of(), List.of(), List.of(), false, false);
    }

    /**
     * RFC 9002 §A.7 OnAckReceived.
     *
     * @param ranges      acknowledged packet numbers as pairs [high, low] (inclusive), highest range first
     * @param ackDelay    the ACK's delay, decoded to ns
     * @param maxAckDelay the peer's max_ack_delay, ns
     */
    public AckResult onAck(PacketSpace space, long[] ranges, long ackDelay, long maxAckDelay,
                           boolean handshakeConfirmed, long now) {
        PacketNumberSpace s = spaces[space.ordinal()];
        long largest = ranges[0];
        if (s.largestAcked < largest) {
            s.largestAcked = largest;
        }
        List<SentPacket> acked = new ArrayList<>();
        List<SentPacket> spurious = null;
        // ranges descending; collect ascending at the end
        for (int i = ranges.length - 2; i >= 0; i -= 2) {
            long hi = ranges[i];
            long lo = ranges[i + 1];
            SentPacketLog log = s.sent;
            long from = Math.max(lo, log.lowest());
            long to = Math.min(hi, log.highest());
            if (log.lowest() >= 0) {
                for (long pn = from; pn <= to; pn++) {
                    SentPacket p = log.remove(pn);
                    if (p != null) {
                        acked.add(p);
                    }
                }
            }
            SentPacketLog lostLog = s.lost;
            if (!lostLog.isEmpty()) {
                long lfrom = Math.max(lo, lostLog.lowest());
                long lto = Math.min(hi, lostLog.highest());
                for (long pn = lfrom; pn <= lto; pn++) {
                    SentPacket p = lostLog.remove(pn);
                    if (p != null) {
                        if (spurious == null) {
                            spurious = new ArrayList<>();
                        }
                        spurious.add(p);
                    }
                }
            }
        }
        if (acked.isEmpty()) {
            return spurious == null ? AckResult.NONE
                    : new AckResult(List.of(), List.of(), spurious, false, false);
        }
        // §5.1: an RTT sample when the largest acknowledged is newly acknowledged and an ack-eliciting
        // packet was newly acknowledged
        SentPacket largestNew = acked.get(acked.size() - 1);
        boolean sampled = false;
        if (largestNew.packetNumber == largest) {
            boolean anyEliciting = false;
            for (SentPacket p : acked) {
                if (p.ackEliciting) {
                    anyEliciting = true;
                    break;
                }
            }
            if (anyEliciting) {
                rtt.onSample(now, now - largestNew.timeSent, space == PacketSpace.APPLICATION ? ackDelay : 0,
                        maxAckDelay, handshakeConfirmed);
                sampled = true;
            }
        }
        for (SentPacket p : acked) {
            removeFromFlight(p);
        }
        List<SentPacket> lostNow = detectLostPackets(space, now);
        boolean pc = !lostNow.isEmpty() && isPersistentCongestion(lostNow, acked);
        // §A.7: reset pto_count unless the client is unsure the server validated its address (handled by caller)
        ptoCount = 0;
        return new AckResult(acked, lostNow, spurious == null ? List.of() : spurious, sampled, pc);
    }

    /** Keeps the PTO backoff when a client has not yet had its address validated (RFC 9002 §A.7). */
    public void keepPtoBackoff(int count) {
        ptoCount = count;
    }

    private void removeFromFlight(SentPacket p) {
        if (p.inFlight) {
            bytesInFlight -= p.size;
            if (p.ackEliciting) {
                spaces[p.space.ordinal()].ackElicitingInFlight--;
            }
        }
    }

    /** RFC 9002 §A.10 DetectAndRemoveLostPackets. */
    public List<SentPacket> detectLostPackets(PacketSpace space, long now) {
        PacketNumberSpace s = spaces[space.ordinal()];
        s.lossTime = 0;
        long largest = s.largestAcked;
        if (largest < 0) {
            return List.of();
        }
        long lossDelay = Math.max(TIME_THRESHOLD_NUM * Math.max(rtt.latestRtt(), rtt.smoothedRtt()) / TIME_THRESHOLD_DEN,
                RttEstimator.GRANULARITY);
        long lostSendTime = now - lossDelay;
        List<SentPacket> lostNow = new ArrayList<>();
        SentPacketLog log = s.sent;
        long[] nextLossTime = {0};
        log.forEachUpTo(largest, p -> {
            if (p.timeSent <= lostSendTime || largest >= p.packetNumber + PACKET_THRESHOLD) {
                lostNow.add(p);
            } else {
                long t = p.timeSent + lossDelay;
                nextLossTime[0] = nextLossTime[0] == 0 ? t : Math.min(nextLossTime[0], t);
            }
        });
        s.lossTime = nextLossTime[0];
        for (SentPacket p : lostNow) {
            log.remove(p.packetNumber);
            removeFromFlight(p);
            p.declaredLost = true;
            p.lostTime = now;
            if (p.ackEliciting) {
                s.lost.add(p);
            }
        }
        return lostNow;
    }

    /**
     * RFC 9002 §7.6.2: persistent congestion when two ack-eliciting lost packets span more than the
     * persistent-congestion duration, no packet sent in between was acknowledged, and both were sent after
     * the first RTT sample.
     */
    private boolean isPersistentCongestion(List<SentPacket> lostNow, List<SentPacket> ackedNow) {
        if (!rtt.hasSample()) {
            return false;
        }
        long duration = (rtt.smoothedRtt() + Math.max(4 * rtt.rttVar(), RttEstimator.GRANULARITY))
                * PERSISTENT_CONGESTION_THRESHOLD;
        // the ack-eliciting lost packets sent after the first RTT sample, ascending
        long start = -1;
        long prevPn = -1;
        for (SentPacket p : lostNow) {
            if (!p.ackEliciting || p.timeSent < rtt.firstSampleTime()) {
                start = -1;
                continue;
            }
            if (start >= 0 && ackedBetween(ackedNow, prevPn, p.packetNumber)) {
                start = -1;
            }
            if (start < 0) {
                start = p.timeSent;
            } else if (p.timeSent - start > duration) {
                return true;
            }
            prevPn = p.packetNumber;
        }
        return false;
    }

    private static boolean ackedBetween(List<SentPacket> acked, long lowPn, long highPn) {
        for (SentPacket a : acked) {
            if (a.packetNumber > lowPn && a.packetNumber < highPn) {
                return true;
            }
        }
        return false;
    }

    /** Forgets lost packets declared lost before {@code before} (they can no longer be found spurious). */
    public void forgetLostBefore(long before) {
        for (PacketNumberSpace s : spaces) {
            SentPacketLog log = s.lost;
            while (!log.isEmpty()) {
                SentPacket first = log.get(log.lowest());
                if (first == null || first.lostTime >= before) {
                    break;
                }
                log.remove(first.packetNumber);
            }
        }
    }

    /** RFC 9002 §A.8 GetLossTimeAndSpace: earliest loss time, or 0. */
    public long earliestLossTime() {
        long t = 0;
        for (PacketNumberSpace s : spaces) {
            if (s.lossTime != 0 && (t == 0 || s.lossTime < t)) {
                t = s.lossTime;
            }
        }
        return t;
    }

    private PacketNumberSpace earliestLossSpace() {
        PacketNumberSpace sp = null;
        long t = 0;
        for (PacketNumberSpace s : spaces) {
            if (s.lossTime != 0 && (t == 0 || s.lossTime < t)) {
                t = s.lossTime;
                sp = s;
            }
        }
        return sp;
    }

    /** A PTO deadline and the space it is for. */
    public record Pto(long time, PacketSpace space) {}

    /**
     * RFC 9002 §A.8 GetPtoTimeAndSpace.
     *
     * @param handshakeConfirmed whether the application space may arm a PTO
     * @param maxAckDelay        the peer's max_ack_delay, ns
     * @param isClient           for the anti-deadlock PTO of a client without handshake keys
     * @param hasHandshakeKeys   client: whether it has handshake keys
     */
    public Pto ptoTimeAndSpace(boolean handshakeConfirmed, long maxAckDelay, boolean isClient, boolean hasHandshakeKeys,
                               long now) {
        long duration = rtt.ptoBase() * (1L << Math.min(ptoCount, 30));
        if (noAckElicitingInFlight()) {
            // anti-deadlock PTO (client only, §6.2.2.1)
            PacketSpace sp = hasHandshakeKeys ? PacketSpace.HANDSHAKE : PacketSpace.INITIAL;
            return new Pto(now + duration, sp);
        }
        long best = Long.MAX_VALUE;
        PacketSpace bestSpace = null;
        for (PacketNumberSpace s : spaces) {
            if (s.discarded || s.ackElicitingInFlight == 0) {
                continue;
            }
            long d = duration;
            if (s.id == PacketSpace.APPLICATION) {
                if (!handshakeConfirmed) {
                    break;
                }
                d += maxAckDelay * (1L << Math.min(ptoCount, 30));
            }
            long t = s.timeOfLastAckEliciting + d;
            if (t < best) {
                best = t;
                bestSpace = s.id;
            }
        }
        return bestSpace == null ? null : new Pto(best, bestSpace);
    }

    public boolean noAckElicitingInFlight() {
        for (PacketNumberSpace s : spaces) {
            if (s.ackElicitingInFlight != 0) {
                return false;
            }
        }
        return true;
    }

    public int ackElicitingInFlight(PacketSpace space) { return spaces[space.ordinal()].ackElicitingInFlight; }

    /**
     * RFC 9002 §A.9 OnLossDetectionTimeout, the loss-time half: if a loss time expired, declares the lost
     * packets and returns them with their space; otherwise returns null and the caller handles the PTO.
     */
    public TimedLoss onLossTimer(long now) {
        PacketNumberSpace sp = earliestLossSpace();
        if (sp == null || sp.lossTime > now) {
            return null;
        }
        List<SentPacket> l = detectLostPackets(sp.id, now);
        boolean pc = !l.isEmpty() && isPersistentCongestion(l, List.of());
        return new TimedLoss(sp.id, l, pc);
    }

    public record TimedLoss(PacketSpace space, List<SentPacket> lost, boolean persistentCongestion) {}

    /** A PTO fired: back off. */
    public void onPtoExpired() {
        ptoCount++;
    }

    /**
     * Discards a space's keys (RFC 9002 §6.4): its packets stop counting in flight and its timers stop.
     * Returns the in-flight packets removed (their stream data, e.g. CRYPTO, needs no retransmission).
     */
    public List<SentPacket> discardSpace(PacketSpace space) {
        PacketNumberSpace s = spaces[space.ordinal()];
        List<SentPacket> removed = new ArrayList<>();
        s.sent.forEach(removed::add);
        for (SentPacket p : removed) {
            removeFromFlight(p);
        }
        s.sent.clear();
        s.lost.clear();
        s.timeOfLastAckEliciting = 0;
        s.lossTime = 0;
        s.discarded = true;
        ptoCount = 0;
        return removed;
    }

    public boolean isDiscarded(PacketSpace space) { return spaces[space.ordinal()].discarded; }

    /** Packets in flight in a space, oldest first (used to choose PTO probe contents). */
    public List<SentPacket> unacked(PacketSpace space) {
        return spaces[space.ordinal()].unackedAckEliciting();
    }

    /** Resets in-flight state when Retry or 0-RTT rejection makes all sent packets moot (RFC 9002 §6.3). */
    public List<SentPacket> removeAll(PacketSpace space) {
        PacketNumberSpace s = spaces[space.ordinal()];
        List<SentPacket> removed = new ArrayList<>();
        s.sent.forEach(removed::add);
        for (SentPacket p : removed) {
            removeFromFlight(p);
        }
        s.sent.clear();
        return removed;
    }
}
