package org.pacelab.quic.recovery;

import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.cc.AckEvent;
import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.cc.CongestionSetup;
import org.pacelab.quic.cc.LossEvent;
import org.pacelab.quic.cc.PacketInfo;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.pacing.Pacer;
import org.pacelab.quic.pacing.PacingRate;
import org.pacelab.quic.qlog.QlogSink;

/**
 * The sender's view of the path (quiche calls this "recovery"): loss detection and RTT (RFC 9002), the
 * congestion controller, delivery-rate estimation and the pacer, kept consistent with each other. The
 * connection reports packets sent and ACKs received; this class decides what was acknowledged or lost and
 * feeds the controller and the pacer.
 */
public final class Recovery {
    private final RttEstimator rtt;
    private final LossDetector loss;
    private final CongestionSetup setup;
    private final CongestionController cc;
    private final Pacer pacer;
    private final DeliveryRateEstimator rateEstimator;
    private final QlogSink qlog;
    private String lastState = "";
    private long lastCwnd = -1;
    private long lastInFlight = -1;
    private long lastSrtt = -1;
    private long lastPacingRate = -1;
    private long currentPacingRate;
    private boolean appLimited;

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

    public void onPacketSent(SentPacket p, long now) {
        if (p.inFlight) {
            rateEstimator.onPacketSent(p, loss.bytesInFlight(), p.timeSent);
        }
        loss.onPacketSent(p);
        if (p.inFlight) {
            cc.onPacketSent(now, PacketInfo.of(p), loss.bytesInFlight());
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

    /**
     * Processes an ACK frame's ranges for a space and informs congestion control.
     *
     * @return the acknowledged and the lost packets (the connection handles their frames)
     */
    public LossDetector.AckResult onAck(PacketSpace space, long[] ranges, long ackDelay, long maxAckDelay,
                                        boolean handshakeConfirmed, long now) {
        long priorInFlight = loss.bytesInFlight();
        LossDetector.AckResult r = loss.onAck(space, ranges, ackDelay, maxAckDelay, handshakeConfirmed, now);
        for (SentPacket p : r.spuriouslyLost()) {
            cc.onSpuriousLoss(now, PacketInfo.of(p));
        }
        if (r.newlyAcked().isEmpty()) {
            return r;
        }
        if (!r.lost().isEmpty()) {
            reportLoss(now, r.lost(), priorInFlight, r.persistentCongestion(), "reordering_threshold");
        }
        List<PacketInfo> acked = new ArrayList<>(r.newlyAcked().size());
        for (SentPacket p : r.newlyAcked()) {
            if (p.inFlight) {
                acked.add(PacketInfo.of(p));
                rateEstimator.onPacketAcked(p, now);
            }
        }
        RateSample rs = acked.isEmpty() ? null : rateEstimator.generateRateSample(rtt.minRtt());
        if (!acked.isEmpty()) {
            cc.onAck(new AckEvent(now, acked, rtt, priorInFlight, loss.bytesInFlight(), rs, appLimited));
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
            if (p.inFlight) {
                infos.add(PacketInfo.of(p));
                rateEstimator.onPacketLost(p);
            }
        }
        if (!infos.isEmpty()) {
            cc.onLoss(new LossEvent(now, infos, rtt, priorInFlight, loss.bytesInFlight(), persistentCongestion));
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
