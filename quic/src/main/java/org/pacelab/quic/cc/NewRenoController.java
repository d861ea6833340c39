package org.pacelab.quic.cc;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * NewReno as specified for QUIC, RFC 9002 §7 and Appendix B, with a {@link SlowStartRule} that may end the
 * initial slow start before a loss (HyStart++ RFC 9406, Linux HyStart, SEARCH).
 *
 * <ul>
 *   <li>Initial window min(10*mds, max(14720, 2*mds)), minimum window 2*mds (§7.2).</li>
 *   <li>Slow start while cwnd &lt; ssthresh: cwnd += bytes acknowledged (§7.3.1, B.5); the slow-start rule
 *       may limit it (HyStart++: L*mds per ACK, divided by 4 in CSS) and may end slow start, setting ssthresh = cwnd.</li>
 *   <li>Congestion avoidance: cwnd += mds * acked_bytes / cwnd per acknowledged packet, integer arithmetic
 *       as in B.5 (§7.3.3).</li>
 *   <li>Congestion event on loss of a packet sent after the start of the current recovery period:
 *       ssthresh = cwnd * 0.5, cwnd = max(ssthresh, minimum window) (§7.3.2, B.6). Packets sent before the
 *       recovery period started do not grow the window when acknowledged (B.5).</li>
 *   <li>Persistent congestion: cwnd = minimum window and the recovery period is cleared (§7.6.2, B.8).</li>
 *   <li>No increase while application- or flow-control-limited (§7.8): ACKs flagged
 *       {@link AckEvent#appLimited()} do not grow the window.</li>
 * </ul>
 * The caller may send one packet right after a congestion event to speed up recovery (B.6
 * MaybeSendOnePacket); that is the connection's decision, not this class's.
 */
public final class NewRenoController implements CongestionController {
    /** RFC 9002 §7.3.2 / B.2: kLossReductionFactor = 0.5. */
    public static final double LOSS_REDUCTION_FACTOR = 0.5;

    private int maxDatagramSize;
    private long congestionWindow;
    private long ssthresh = Long.MAX_VALUE;
    private final RecoveryPeriod recovery = new RecoveryPeriod();
    private final SlowStart slowStart;
    private boolean appLimited;

    /**
     * @param maxDatagramSize the path's maximum datagram size, bytes
     * @param slowStartExit   the rule that may end the initial slow start early ({@link SlowStartConfig#create}),
     *                        or null for standard slow start
     */
    public NewRenoController(int maxDatagramSize, SlowStartExit slowStartExit) {
        this.maxDatagramSize = maxDatagramSize;
        this.congestionWindow = WindowBounds.initialWindow(maxDatagramSize);
        this.slowStart = new SlowStart(slowStartExit == null ? new StandardSlowStart() : slowStartExit);
    }

    @Override
    public String name() { return "newreno"; }

    @Override
    public long congestionWindow() { return congestionWindow; }

    @Override
    public long slowStartThreshold() { return ssthresh; }

    @Override
    public boolean inSlowStart() { return congestionWindow < ssthresh; }

    /** 0 (the pacer's gain × cwnd / srtt) but where the slow-start rule paces at a rate of its own (in its check, after its end). */
    @Override
    public long pacingRate() { return slowStart.pacingRate(inSlowStart(), congestionWindow); }

    @Override
    public String state() {
        return slowStart.state(recovery.inRecovery(), appLimited, inSlowStart());
    }

    @Override
    public void onPacketSent(long now, PacketInfo packet, long bytesInFlight) {
        slowStart.onPacketSent(packet, inSlowStart());
    }

    @Override
    public void onAck(AckEvent ack) {
        for (PacketInfo p : ack.acked()) {
            recovery.onAcked(p.timeSent());
            slowStart.onAcked(p.timeSent(), ack.now());
        }
        appLimited = ack.appLimited();
        // B.5 OnPacketAcked: IsAppOrFlowControlLimited()
        if (appLimited) {
            if (slowStart.onAppLimitedAck(ack, inSlowStart(), congestionWindow, maxDatagramSize)) {
                leaveSlowStart();
            } else {
                cutInSlowStart(ack.now());
            }
            return;
        }
        slowStart.beginAck(inSlowStart(), maxDatagramSize);
        for (PacketInfo p : ack.acked()) {
            if (recovery.covers(p.timeSent())) {
                continue;
            }
            if (inSlowStart()) {
                congestionWindow += slowStart.increase(p.size(), true);
            } else {
                congestionWindow += (long) maxDatagramSize * p.size() / congestionWindow;
            }
        }
        if (slowStart.endAck(ack, congestionWindow(), maxDatagramSize)) {
            leaveSlowStart();
        } else {
            cutInSlowStart(ack.now());
        }
    }

    /** The rule may lower or raise the window while slow start goes on ({@link SlowStart#takeWindowCut}, {@link SlowStart#takeWindowRaise}). */
    private void cutInSlowStart(long now) {
        long w = slowStart.takeWindowCut(now, congestionWindow);
        if (w >= 0) {
            congestionWindow = Math.max(w, WindowBounds.minimumWindow(maxDatagramSize));
        }
        long r = slowStart.takeWindowRaise(congestionWindow);
        if (r > 0) {
            congestionWindow = r;
        }
    }

    /** RFC 9406 §4.2: enter congestion avoidance by setting ssthresh to the (rule's exit) window. */
    private void leaveSlowStart() {
        congestionWindow = Math.max(slowStart.exitWindow(congestionWindow), WindowBounds.minimumWindow(maxDatagramSize));
        ssthresh = congestionWindow;
    }

    @Override
    public void onLoss(LossEvent loss) {
        if (!loss.lost().isEmpty()) {
            onCongestionEvent(loss.now(), loss.largestLostSentTime());
        }
        if (loss.persistentCongestion()) {
            // B.8: collapse to the minimum window
            congestionWindow = WindowBounds.minimumWindow(maxDatagramSize);
            recovery.clear();
        }
    }

    /** RFC 9002 B.6 OnCongestionEvent. */
    private void onCongestionEvent(long now, long sentTime) {
        if (slowStart.exitCovers(sentTime)) {
            // a loss the slow-start exit covers: the rule may lower the window, no congestion event
            congestionWindow = Math.max(slowStart.windowAfterCoveredLoss(now, congestionWindow),
                    WindowBounds.minimumWindow(maxDatagramSize));
            ssthresh = Math.min(ssthresh, congestionWindow);
            return;
        }
        if (recovery.covers(sentTime)) {
            return;
        }
        recovery.enter(now);
        ssthresh = (long) (congestionWindow * LOSS_REDUCTION_FACTOR);
        long floor = slowStart.congestionFloor(congestionWindow);
        if (floor > ssthresh && floor < congestionWindow) {
            ssthresh = floor;
        }
        congestionWindow = Math.max(ssthresh, WindowBounds.minimumWindow(maxDatagramSize));
        slowStart.stop();
    }

    @Override
    public void onAppLimited(long now, boolean appLimited) {
        this.appLimited = appLimited;
    }

    @Override
    public void onMaxDatagramSizeChanged(int maxDatagramSize) {
        boolean smaller = maxDatagramSize < this.maxDatagramSize;
        this.maxDatagramSize = maxDatagramSize;
        if (smaller) {
            // RFC 9002 §7.2: a size decreased during the handshake (the peer's max_udp_payload_size) sets the window
            // to the initial window recalculated with it
            congestionWindow = WindowBounds.initialWindow(maxDatagramSize);
        }
        congestionWindow = Math.max(congestionWindow, WindowBounds.minimumWindow(maxDatagramSize));
    }

    @Override
    public Map<String, Object> qlogState() {
        Map<String, Object> m = new LinkedHashMap<>();
        slowStart.putQlogState(m);
        return m;
    }
}
