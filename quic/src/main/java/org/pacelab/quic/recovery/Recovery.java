package org.pacelab.quic.recovery;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.cc.AckEvent;
import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.cc.LossEvent;
import org.pacelab.quic.cc.PacketInfo;
import org.pacelab.quic.cc.RateSample;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.pacing.Pacer;
import org.pacelab.quic.pacing.PacingRate;
import org.pacelab.quic.qlog.QlogSink;

/**
 * The sender's view of the path (quiche calls this "recovery"): loss detection, the loss-detection timer and
 * the probe timeout, and RTT (RFC 9002), the congestion controller, delivery-rate estimation and the pacer, kept
 * consistent with each other. The connection reports packets sent and ACKs received and asks when the timer
 * fires; this class decides what was acknowledged or lost, which space a PTO probes, and feeds the controller
 * and the pacer. quiche's {@code RecoveryOps} and Kwik's {@code RecoveryManager} have the same job.
 */
public final class Recovery {
    private final RttEstimator rtt;
    private final LossDetector loss;
    private CongestionSetup setup;
    private CongestionController cc;
    private Pacer pacer;
    private DeliveryRateEstimator rateEstimator;
    /**
     * When the connection last moved to a new path and started its congestion state afresh (RFC 9000 §9.4), or
     * MIN_VALUE: packets sent before then are the old path's, and neither their acknowledgment nor their loss
     * reaches the new controller.
     */
    private long pathStart = Long.MIN_VALUE;
    private final QlogSink qlog;
    private String lastState = "";
    private long lastCwnd = -1;
    private long lastInFlight = -1;
    private long lastSrtt = -1;
    private long lastPacingRate = -1;
    private int maxDatagramSize;
    private long currentPacingRate;
    private boolean appLimited;
    /** The peer's max_ack_delay, ns (RFC 9000 §18.2: 25 ms until its transport parameters say otherwise). */
    private long peerMaxAckDelay = 25_000_000L;
    /**
     * When the loss-detection timer was last set (RFC 9002 §A.8 SetLossDetectionTimer runs when an in-flight
     * packet is sent, an ACK acknowledges something new, the timer fires, or a space is discarded): the client's
     * anti-deadlock PTO counts from there (§6.2.2.1, "now + duration").
     */
    private long timerSetAt;

    /**
     * The handshake facts the loss-detection timer depends on (RFC 9002 §6.2.2.1, §A.6, §A.8); quiche passes
     * the same as its {@code HandshakeStatus}.
     *
     * @param isClient                        the client arms the anti-deadlock PTO
     * @param hasHandshakeKeys                whether Handshake keys are installed (the anti-deadlock probe's space)
     * @param handshakeConfirmed              the application space arms a PTO only after this
     * @param peerCompletedAddressValidation  server: always; client: once a Handshake ACK arrived or the
     *                                        handshake is confirmed (RFC 9002 §A.6 PeerCompletedAddressValidation)
     * @param atAmplificationLimit            a server that may send nothing more before the client's address is
     *                                        validated arms no timer (RFC 9002 §A.8)
     * @param initialDataUnacked              some of our Initial CRYPTO data (a server's ServerHello) is not yet
     *                                        acknowledged: a server's PTO probes the Initial space first
     */
    public record HandshakeStatus(boolean isClient, boolean hasHandshakeKeys, boolean handshakeConfirmed,
                                  boolean peerCompletedAddressValidation, boolean atAmplificationLimit,
                                  boolean initialDataUnacked) {}

    /**
     * What a loss-detection timeout asks of the connection: packets declared lost by the time threshold, or
     * the packets whose frames the PTO probes carry again (RFC 9002 §6.2.4: the oldest unacknowledged data).
     * The probes themselves are counted in the probed space ({@link PacketNumberSpace#probesToSend()}).
     */
    public record Timeout(List<SentPacket> lost, List<SentPacket> resend) {}

    /** @param spaces the connection's packet number spaces, whose sent packets loss detection tracks */
    public Recovery(RttEstimator rtt, PacketNumberSpace[] spaces, CongestionSetup setup, QlogSink qlog) {
        this.rtt = rtt;
        this.loss = new LossDetector(rtt, spaces);
        this.setup = setup;
        this.cc = setup.controller();
        this.pacer = setup.pacer();
        this.rateEstimator = setup.estimator();
        this.qlog = qlog;
    }

    public RttEstimator rtt() { return rtt; }

    public LossDetector loss() { return loss; }

    public CongestionController congestionController() { return cc; }

    public Pacer pacer() { return pacer; }

    public long bytesInFlight() { return loss.bytesInFlight(); }

    /** Room the congestion window leaves for new in-flight bytes. */
    public long congestionWindowRoom() {
        return Math.max(0, cc.congestionWindow() - loss.bytesInFlight());
    }

    /** The pacing rate last given to the pacer, bytes per second (0 when not pacing). */
    public long pacingRate() { return currentPacingRate; }

    /**
     * RFC 9000 §9.4: the peer's new address (not only a new port) is validated, so the congestion controller, the
     * pacer and the RTT estimator start again from their initial values (RFC 9002 §A.3, §B.3) with {@code fresh} (made
     * for the current datagram size).
     * Packets still in flight from the old path keep counting in flight until acknowledged or lost, but tell the new
     * controller nothing about the new path.
     */
    public void resetForNewPath(CongestionSetup fresh, long now) {
        rtt.reset();
        setup = fresh;
        cc = fresh.controller();
        pacer = fresh.pacer();
        rateEstimator = fresh.estimator();
        pathStart = now;
        appLimited = false;
        updatePacer(now);
        logMetrics(now);
    }

    /** Whether {@code p} was sent on the current path (after the last reset for a new path). */
    private boolean onCurrentPath(SentPacket p) {
        return p.timeSent >= pathStart;
    }

    public void onPacketSent(SentPacket p, long now) {
        if (p.inFlight) {
            timerSetAt = now;
        }
        if (p.inFlight) {
            rateEstimator.onPacketSent(p, loss.bytesInFlight(), p.timeSent);
        }
        loss.onPacketSent(p);
        if (p.inFlight) {
            cc.onPacketSent(now, p.info(), loss.bytesInFlight());
        }
        pacer.onPacketSent(p.intendedSendTime, p.size);
        if (p.inFlight) {
            updatePacer(now);
        }
    }

    /** Marks whether the sender has nothing more to send right now though the window allows it (RFC 9002 §7.8). */
    public void setAppLimited(long now, boolean limited) {
        if (limited != appLimited) {
            appLimited = limited;
            cc.onAppLimited(now, limited);
        }
        if (limited) {
            rateEstimator.markAppLimited(loss.bytesInFlight());
        }
    }

    /** The peer's max_ack_delay (its transport parameter), ns. */
    public void setPeerMaxAckDelay(long nanos) {
        this.peerMaxAckDelay = nanos;
    }

    public long peerMaxAckDelay() { return peerMaxAckDelay; }

    /**
     * The path's maximum datagram size changed (the peer's max_udp_payload_size is below ours): the controller
     * recomputes its windows in the new size (RFC 9002 §7.2) and the pacer its quantum.
     */
    public void onMaxDatagramSizeChanged(int maxDatagramSize) {
        this.maxDatagramSize = maxDatagramSize;
        setup.onMaxDatagramSizeChanged(maxDatagramSize);
    }

    /** The maximum datagram size the controller and the pacer last heard of, or 0 while it is the initial one. */
    public int maxDatagramSize() { return maxDatagramSize; }

    /**
     * RFC 9002 §A.8 SetLossDetectionTimer: when the loss-detection timer fires (the earliest loss time, else the
     * PTO), or {@link Long#MAX_VALUE} when it is not armed.
     */
    public long lossDetectionTimer(HandshakeStatus hs) {
        long lossTime = loss.earliestLossTime();
        if (lossTime != 0) {
            return lossTime;
        }
        if (hs.atAmplificationLimit()) {
            // the client's PTO unblocks us
            return Long.MAX_VALUE;
        }
        if (loss.noAckElicitingInFlight() && hs.peerCompletedAddressValidation()) {
            return Long.MAX_VALUE;
        }
        LossDetector.Pto pto = loss.ptoTimeAndSpace(hs.handshakeConfirmed(), peerMaxAckDelay, hs.isClient(),
                hs.hasHandshakeKeys(), timerSetAt);
        return pto == null ? Long.MAX_VALUE : pto.time();
    }

    /**
     * RFC 9002 §A.9 OnLossDetectionTimeout: declares time-threshold losses (and tells congestion control), or
     * else backs the PTO off and asks for probes: two in the space whose PTO fired (§6.2.4); a server whose Initial
     * data is unacknowledged probes the Initial space once, with one Handshake probe carrying its Handshake data.
     */
    public Timeout onLossDetectionTimeout(HandshakeStatus hs, long now) {
        timerSetAt = now;
        long prior = loss.bytesInFlight();
        LossDetector.TimedLoss timed = loss.onLossTimer(now);
        if (timed != null) {
            reportLoss(now, timed.lost(), prior, timed.persistentCongestion(), "time_threshold");
            return new Timeout(timed.lost(), List.of());
        }
        LossDetector.Pto pto = loss.ptoTimeAndSpace(hs.handshakeConfirmed(), peerMaxAckDelay, hs.isClient(),
                hs.hasHandshakeKeys(), now);
        PacketSpace space;
        if (loss.noAckElicitingInFlight()) {
            // RFC 9002 §6.2.2.1: the client's anti-deadlock probe
            space = hs.hasHandshakeKeys() ? PacketSpace.HANDSHAKE : PacketSpace.INITIAL;
        } else {
            space = pto == null ? PacketSpace.APPLICATION : pto.space();
            if (space == PacketSpace.HANDSHAKE && hs.initialDataUnacked() && loss.ackElicitingInFlight(PacketSpace.INITIAL) > 0) {
                // While our Initial data is unacknowledged, a Handshake PTO probes the Initial space (with the Handshake
                // data coalesced, below), as ngtcp2 does: a peer without our Initial data (the ServerHello) can read
                // none of our Handshake packets, and probing the two spaces in turn sent the ServerHello at every other
                // PTO only (1, 5 and 21 s behind the interop runner's handshakecorruption against gtlsclient)
                space = PacketSpace.INITIAL;
            }
        }
        loss.onPtoExpired();
        // a server's Initial probe carries its Handshake data with it (§6.2.4: the sender SHOULD also send
        // ack-eliciting packets from other spaces with data in flight, coalesced), not a bare PING; one probe in each
        // space, as ngtcp2's server: a second Initial probe would be a PING padded to 1,200 bytes of the
        // amplification budget (RFC 9000 §8.1, §14.1)
        boolean withHandshake = space == PacketSpace.INITIAL && hs.hasHandshakeKeys() && !hs.isClient();
        List<SentPacket> resend = new ArrayList<>(requestProbes(space, withHandshake ? 1 : 2));
        if (withHandshake) {
            resend.addAll(requestProbes(PacketSpace.HANDSHAKE, 1));
        }
        if (space != PacketSpace.APPLICATION) {
            // §6.2.4: the sender SHOULD also send ack-eliciting packets from other spaces with data in flight, coalesced.
            // A client whose HANDSHAKE_DONE was lost probes the Handshake space, which a server that completed the
            // handshake can no longer read; its 1-RTT request, lost too, went again only this way (aioquic's server
            // probes with bare PINGs, which the client acknowledged in 1-RTT packets that were lost as well, and the
            // connection idled out in the runner's handshakeloss case)
            PacketNumberSpace app = loss.space(PacketSpace.APPLICATION);
            List<SentPacket> appUnacked = app.unackedAckEliciting();
            if (!appUnacked.isEmpty()) {
                app.requestProbes(1);
                resend.add(appUnacked.getFirst());
            }
        }
        logMetrics(now);
        return new Timeout(List.of(), List.copyOf(resend));
    }

    /**
     * Asks {@code space} for {@code probes} probe packets and returns the packets whose frames they carry again: its
     * oldest two unacknowledged ack-eliciting packets (RFC 9002 §6.2.4: a probe SHOULD carry data).
     */
    private List<SentPacket> requestProbes(PacketSpace space, int probes) {
        PacketNumberSpace s = loss.space(space);
        s.requestProbes(probes);
        List<SentPacket> unacked = s.unackedAckEliciting();
        return unacked.subList(0, Math.min(2, unacked.size()));
    }

    /**
     * RFC 9002 §6.2.3, Speeding up Handshake Completion: the server received an ack-eliciting Initial packet from the
     * client (a repeated ClientHello, or a PING: the client's Initial PTO probe, §6.2.4, when it has no ClientHello left
     * to send because our ACK of it arrived) while its own Initial CRYPTO data (the ServerHello) is in flight and
     * unacknowledged. A client with the ServerHello would probe the Handshake space instead (§6.2.2.1, §A.8), so the
     * client lacks our Initial data and probably our Handshake data too: the server sends its unacknowledged Initial
     * and Handshake data now, one probe in each space, rather than at its own PTO, which may be backed off to many times
     * this (behind the interop runner's handshakecorruption against gtlsclient every server datagram with the
     * ServerHello was corrupted at 0, 1, 3, 7, 15 and 31 s while the client's PING probes came at 0.1, 0.3, 0.7, 1.6,
     * 3.0 ... 32 s, each answered with an ACK only, and the server idled out at 62 s).
     * <p>
     * §6.2.3 asks for "a limited number of times per connection", and warns against an infinite exchange. One rule
     * limits it: no answer while the newest copy of the server's Initial or Handshake CRYPTO data (one that its PTO
     * sent, or its loss recovery in either space, or an earlier answer here; the newer of the two spaces' copies, since
     * an answer resends both) left less than one un-backed-off PTO ago (smoothed_rtt + max(4 × rttvar, kGranularity),
     * §6.2.1; no max_ack_delay in a handshake space). The PTO is the time within which the
     * sender expects a packet's acknowledgment (§6.2, §6.2.1): a client packet that arrives sooner after the copy was
     * likely sent before the copy could reach the client (§6.2.3's "the client's estimated RTT is too small"), so it
     * shows nothing about the copy, and another flight at once would double the copy for nothing (before, when the
     * server's PTO had just sent its flight, a client PING 1 ms later drew a second one). Since an answer is itself the
     * newest copy, a burst of client packets draws one answer. The first flight is no copy: the first client probe
     * after it is answered at once, the one early retransmission §6.2.3 calls "adequate to quickly recover from a
     * single packet loss" (the client's first probe, a repeated ClientHello or, once our ACK gave the client an RTT
     * sample, a PING, comes before the server's own PTO, which has no RTT sample before the ServerHello is
     * acknowledged). Each answer follows a datagram of the client, whose own probes back off; the anti-amplification
     * limit (RFC 9000 §8.1) still bounds what the server sends before the client's address is validated, and Initial
     * packets end with the handshake (RFC 9000 §17.2.2.1, RFC 9001 §4.9.1). Neither resets nor advances the PTO
     * backoff: the client's packet shows that the path toward the server works, not the one back, which only an
     * acknowledgement shows (§6.2.1, §A.7); ngtcp2 too asks for a probe in each space without touching its pto_count.
     * The probes re-arm the timer as any ack-eliciting packet sent does (§A.8). Returns the packets whose frames go
     * again (empty when not).
     */
    public List<SentPacket> onClientInitialProbe(HandshakeStatus hs, long now) {
        PacketNumberSpace initial = loss.space(PacketSpace.INITIAL);
        if (hs.isClient() || !hs.initialDataUnacked() || initial.unackedAckEliciting().isEmpty()) {
            return List.of();
        }
        // the newer of the two spaces' copies: a Handshake-only copy (its loss recovery) holds the answer back too
        long lastCopy = Math.max(initial.lastCryptoCopySent(), loss.space(PacketSpace.HANDSHAKE).lastCryptoCopySent());
        if (lastCopy != Long.MIN_VALUE && now - lastCopy < rtt.ptoBase()) {
            return List.of();
        }
        List<SentPacket> resend = new ArrayList<>(requestProbes(PacketSpace.INITIAL, 1));
        if (hs.hasHandshakeKeys()) {
            resend.addAll(requestProbes(PacketSpace.HANDSHAKE, 1));
        }
        return List.copyOf(resend);
    }

    /**
     * Processes an ACK frame's ranges for a space and informs congestion control (RFC 9002 §A.7).
     *
     * @return the acknowledged and the lost packets (the connection handles their frames)
     */
    public LossDetector.AckResult onAck(PacketSpace space, long[] ranges, long ackDelay, HandshakeStatus hs, long now) {
        long priorInFlight = loss.bytesInFlight();
        int ptoCountBefore = loss.ptoCount();
        LossDetector.AckResult r = loss.onAck(space, ranges, ackDelay, peerMaxAckDelay, hs.handshakeConfirmed(), now);
        if (!hs.peerCompletedAddressValidation()) {
            // §A.7: a client unsure whether the server validated its address keeps backing off
            loss.keepPtoBackoff(ptoCountBefore);
        }
        for (SentPacket p : r.spuriouslyLost()) {
            if (onCurrentPath(p)) {
                cc.onSpuriousLoss(now, p.info());
            }
        }
        if (r.newlyAcked().isEmpty()) {
            return r;
        }
        timerSetAt = now;
        if (!r.lost().isEmpty()) {
            reportLoss(now, r.lost(), priorInFlight, r.persistentCongestion(), "reordering_threshold");
        }
        List<PacketInfo> acked = new ArrayList<>(r.newlyAcked().size());
        for (SentPacket p : r.newlyAcked()) {
            if (p.inFlight && onCurrentPath(p)) {
                acked.add(p.info());
                rateEstimator.onPacketAcked(p, now);
            }
        }
        RateSample rs = acked.isEmpty() ? null : rateEstimator.generateRateSample(rtt.minRtt());
        if (!acked.isEmpty()) {
            cc.onAck(new AckEvent(now, acked, rtt.estimates(), priorInFlight, loss.bytesInFlight(), rs, appLimited,
                    rateEstimator.delivered()));
        }
        updatePacer(now);
        logMetrics(now);
        return r;
    }

    /** Declared-lost packets from the loss timer or an ACK: congestion control reacts once. */
    public void reportLoss(long now, List<SentPacket> lost, long priorInFlight, boolean persistentCongestion, String trigger) {
        List<PacketInfo> infos = new ArrayList<>(lost.size());
        for (SentPacket p : lost) {
            if (qlog.enabled()) {
                qlog.packetLost(now, typeOf(p.space), p.packetNumber, trigger);
            }
            if (p.inFlight && onCurrentPath(p)) {
                infos.add(p.info());
                rateEstimator.onPacketLost(p);
            }
        }
        if (!infos.isEmpty()) {
            cc.onLoss(new LossEvent(now, infos, rtt.estimates(), priorInFlight, loss.bytesInFlight(), persistentCongestion,
                    rateEstimator.delivered(), rateEstimator.lost()));
            if (persistentCongestion) {
                rtt.resetMinRtt();
            }
        }
        updatePacer(now);
        logMetrics(now);
    }

    private static org.pacelab.quic.packet.PacketType typeOf(PacketSpace s) {
        return switch (s) {
            case INITIAL -> org.pacelab.quic.packet.PacketType.INITIAL;
            case HANDSHAKE -> org.pacelab.quic.packet.PacketType.HANDSHAKE;
            case APPLICATION -> org.pacelab.quic.packet.PacketType.ONE_RTT;
        };
    }

    /** A space's keys were discarded (RFC 9002 §6.4); returns the packets that no longer count. */
    public List<SentPacket> discardSpace(PacketSpace space, long now) {
        timerSetAt = now;
        List<SentPacket> removed = loss.discardSpace(space);
        updatePacer(now);
        return removed;
    }

    private void updatePacer(long now) {
        PacingRate r = setup.updatePacer(now, rtt, loss.bytesInFlight());
        currentPacingRate = r.bytesPerSecond();
    }

    /** Emits recovery:metrics_updated and congestion_state_updated when something changed. */
    public void logMetrics(long now) {
        if (!qlog.enabled()) {
            return;
        }
        String state = cc.state();
        if (!state.equals(lastState)) {
            qlog.congestionStateUpdated(now, lastState.isEmpty() ? "initial" : lastState, state);
            lastState = state;
        }
        long cwnd = cc.congestionWindow();
        long inFlight = loss.bytesInFlight();
        if (cwnd != lastCwnd || inFlight != lastInFlight || rtt.smoothedRtt() != lastSrtt || currentPacingRate != lastPacingRate) {
            lastCwnd = cwnd;
            lastInFlight = inFlight;
            lastSrtt = rtt.smoothedRtt();
            lastPacingRate = currentPacingRate;
            qlog.metricsUpdated(now, rtt.minRtt(), rtt.smoothedRtt(), rtt.latestRtt(), rtt.rttVar(), cwnd, inFlight,
                    cc.slowStartThreshold(), currentPacingRate * 8);
        }
    }
}
