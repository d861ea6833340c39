package org.pacelab.quic.cc;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CUBIC, RFC 9438, on QUIC's loss recovery (RFC 9002 §7: recovery period, minimum window, persistent
 * congestion), with a {@link SlowStartRule} that may end the initial slow start before a loss (HyStart++ RFC 9406,
 * Linux HyStart, SEARCH) and a spurious-congestion undo mode ({@link CubicRollback}).
 *
 * <p>Windows are kept in bytes as real numbers (RFC 9438 §4.1 allows bytes "factoring in the maximum
 * segment size"); {@link #congestionWindow()} rounds down. Per acknowledged packet of n bytes in
 * congestion avoidance, with t the time since the epoch and RTT the smoothed RTT:
 * <ul>
 *   <li>W_cubic(t) = C*(t-K)^3 + W_max (eq. 1, in segments; times mds in bytes), C = 0.4;</li>
 *   <li>K = cbrt((W_max - cwnd_epoch)/C) (eq. 2); it equals cbrt(W_max*(1-β)/C) when cwnd_epoch = β*W_max;</li>
 *   <li>target = W_cubic(t+RTT) clamped to [cwnd, 1.5*cwnd] (§4.2);</li>
 *   <li>W_est += α_cubic * n*mds/cwnd (eq. 4), α_cubic = 3(1-β)/(1+β) until W_est ≥ cwnd_prior, then 1;</li>
 *   <li>if W_cubic(t) &lt; W_est: cwnd = max(cwnd, W_est) (Reno-friendly region, §4.3), else
 *       cwnd += (target - cwnd) * n / cwnd (concave and convex regions, §4.4, §4.5).</li>
 * </ul>
 * The epoch (t_epoch, cwnd_epoch, K, W_est reset) starts at the first ACK processed in congestion avoidance
 * after a congestion event, i.e. when the recovery period has ended. A congestion event (loss of a packet
 * sent after the current recovery period started) applies fast convergence (§4.7, optional:
 * W_max = cwnd*(1+β)/2 if cwnd &lt; W_max, else cwnd), cwnd_prior = cwnd, ssthresh = max(cwnd*β, 2*mds),
 * cwnd = ssthresh with β = 0.7 (§4.6; like RFC 9002 it uses cwnd, not flight size, and does not grow the
 * window while application-limited, §4.6 and RFC 9002 §7.8). After persistent congestion (the QUIC analogue
 * of a timeout, §4.8) cwnd = 2*mds and the next epoch uses K = 0 and W_max = cwnd_epoch; the same holds
 * when the slow-start rule ends slow start without loss (§4.10, cwnd_prior = cwnd). Application-limited periods
 * reported with {@link #onAppLimited} are excluded from t by moving t_epoch forward (§4.2).
 */
public final class CubicController implements CongestionController {
    /** RFC 9438 §5: C = 0.4 segments/s^3. */
    public static final double C = 0.4;
    /** RFC 9438 §4.6: β_cubic = 0.7. */
    public static final double BETA = 0.7;
    /** RFC 9438 §4.3: α_cubic = 3(1-β)/(1+β). */
    public static final double ALPHA = 3 * (1 - BETA) / (1 + BETA);
    /** quiche: rollback threshold, percent of cwnd in packets. */
    static final int QUICHE_ROLLBACK_THRESHOLD_PERCENT = 20;
    /** quiche: minimum rollback threshold, packets. */
    static final int QUICHE_MIN_ROLLBACK_THRESHOLD = 2;

    private int maxDatagramSize;
    private final SlowStart slowStart;
    private final CubicRollback rollback;
    private final boolean fastConvergence;
    private final RecoveryPeriod recovery = new RecoveryPeriod();
    private final LossEpisode episode = new LossEpisode();
    private final GradualCut gradualCut = new GradualCut();

    private double cwnd;
    private long ssthresh = Long.MAX_VALUE;
    private double cwndPrior;
    private double wMax;
    /** The next congestion event takes fast convergence: slow start ended without loss by a rule that asks for it. */
    private boolean convergeAtNextEvent;
    private double k;
    private boolean epochSet;
    private long tEpoch;
    private double cwndEpoch;
    private double wEst;
    private double alpha = ALPHA;

    private boolean ackAppLimited;
    private boolean appLimitedPhase;
    private long appLimitedSince;

    private long lostPackets;
    private Checkpoint checkpoint;
    private int rollbacks;

    /** The state saved at a congestion event for undo (RFC 9438 §4.9.2 or quiche's checkpoint). */
    private record Checkpoint(double cwnd, double cwndPrior, long ssthresh, double wMax, double k, boolean epochSet,
                              long tEpoch, double cwndEpoch, double wEst, double alpha,
                              RecoveryPeriod.Snapshot recovery, long lostPackets) {}

    /**
     * @param maxDatagramSize the path's maximum datagram size, bytes
     * @param slowStartExit   the rule that may end the initial slow start early ({@link SlowStartConfig#create}),
     *                        or null for standard slow start
     * @param rollback        undo mode
     * @param fastConvergence whether to apply fast convergence (RFC 9438 §4.7)
     */
    public CubicController(int maxDatagramSize, SlowStartExit slowStartExit, CubicRollback rollback,
                           boolean fastConvergence) {
        this.maxDatagramSize = maxDatagramSize;
        this.slowStart = new SlowStart(slowStartExit == null ? new StandardSlowStart() : slowStartExit);
        this.rollback = rollback;
        this.fastConvergence = fastConvergence;
        this.cwnd = WindowBounds.initialWindow(maxDatagramSize);
    }

    @Override
    public String name() { return "cubic"; }

    @Override
    public long congestionWindow() { return (long) cwnd; }

    @Override
    public long slowStartThreshold() { return ssthresh; }

    @Override
    public boolean inSlowStart() { return cwnd < ssthresh; }

    /** 0 (the pacer's gain × cwnd / srtt) but where the slow-start rule paces at a rate of its own (in its check, after its end). */
    @Override
    public long pacingRate() { return slowStart.pacingRate(inSlowStart(), (long) cwnd); }

    @Override
    public String state() {
        return slowStart.state(recovery.inRecovery(), ackAppLimited || appLimitedPhase, inSlowStart());
    }

    /** W_max in bytes (0 before the first congestion event or after persistent congestion). */
    public double wMax() { return wMax; }

    /** K in seconds of the current epoch. */
    public double k() { return k; }

    /** W_est in bytes. */
    public double wEst() { return wEst; }

    /** cwnd_prior in bytes. */
    public double cwndPrior() { return cwndPrior; }

    /** The congestion window in bytes, unrounded. */
    public double exactCongestionWindow() { return cwnd; }

    /** Number of undos performed (both modes). */
    public int rollbacks() { return rollbacks; }

    public CubicRollback rollbackMode() { return rollback; }

    @Override
    public void onPacketSent(long now, PacketInfo packet, long bytesInFlight) {
        slowStart.onPacketSent(packet, inSlowStart());
    }

    @Override
    public void onAck(AckEvent ack) {
        if (gradualCut.active()) {
            cwnd = Math.min(cwnd, gradualCut.onAck(ack));
            slowStart.extendCutCover(ack.now());
        }
        for (PacketInfo p : ack.acked()) {
            recovery.onAcked(p.timeSent());
            slowStart.onAcked(p.timeSent(), ack.now());
        }
        ackAppLimited = ack.appLimited();
        if (ackAppLimited) {
            if (slowStart.onAppLimitedAck(ack, inSlowStart(), ruleWindow(), maxDatagramSize)) {
                leaveSlowStart();
            } else {
                cutInSlowStart(ack);
            }
            return;
        }
        slowStart.beginAck(inSlowStart(), maxDatagramSize);
        for (PacketInfo p : ack.acked()) {
            if (recovery.covers(p.timeSent())) {
                continue;
            }
            if (rollback == CubicRollback.QUICHE && quicheRollbackDue() && restoreQuicheCheckpoint()) {
                continue;
            }
            if (inSlowStart()) {
                cwnd += slowStart.increase(p.size(), true);
            } else {
                congestionAvoidance(ack.now(), p.size(), ack.rtt().smoothedRtt());
            }
        }
        if (slowStart.endAck(ack, ruleWindow(), maxDatagramSize)) {
            leaveSlowStart();
        } else {
            cutInSlowStart(ack);
        }
    }

    /**
     * The window the slow-start rule sees: a gradual cut's target while it runs (the rule cut to it; the window above
     * it only lets what was in flight at the cut drain gradually), else the window.
     */
    private long ruleWindow() {
        return gradualCut.active() ? gradualCut.target() : (long) cwnd;
    }

    /**
     * The rule may lower the window while slow start goes on ({@link SlowStart#takeWindowCut}): at once, or gradually
     * ({@link GradualCut}) when more than the rule's bound for that is in flight ({@link SlowStart#gradualCutAbove}).
     */
    private void cutInSlowStart(AckEvent ack) {
        long w = slowStart.takeWindowCut(ack.now(), (long) cwnd);
        if (w < 0) {
            return;
        }
        long target = Math.max(w, WindowBounds.minimumWindow(maxDatagramSize));
        long inFlight = Math.min((long) cwnd, ack.bytesInFlight());
        long above = slowStart.gradualCutAbove();
        long bound = Math.max(target, above);
        if (above >= 0 && inFlight > bound) {
            cwnd = gradualCut.start(ack.now(), inFlight, target, bound);
            slowStart.onGradualCut();
        } else {
            cwnd = target;
        }
    }

    /** A congestion event or persistent congestion during a gradual cut: the reduction starts from its target. */
    private void finishGradualCut() {
        if (gradualCut.active()) {
            cwnd = Math.min(cwnd, gradualCut.target());
            gradualCut.finish();
        }
    }

    /**
     * RFC 9406 §4.2 and RFC 9438 §4.10: leave slow start without loss, at the rule's exit window (below the window, or
     * above it by a standing queue the rule keeps, {@link SlowStartExit#exitRaise}).
     */
    private void leaveSlowStart() {
        long exit = slowStart.exitWindow((long) cwnd);
        if (exit != cwnd) {
            cwnd = Math.max(exit, WindowBounds.minimumWindow(maxDatagramSize));
        }
        ssthresh = (long) cwnd;
        cwndPrior = cwnd;
        convergeAtNextEvent = slowStart.convergeAfterExit();
    }

    /** A loss of a packet the slow-start exit covers: the rule may lower the window; CUBIC's epoch restarts from it. */
    private void onCoveredLoss(long now) {
        long w = Math.max(slowStart.windowAfterCoveredLoss(now, (long) cwnd), WindowBounds.minimumWindow(maxDatagramSize));
        if (w < cwnd) {
            if (inSlowStart()) {
                convergeAtNextEvent = slowStart.convergeAfterExit();
            }
            cwnd = w;
            ssthresh = w;
            cwndPrior = w;
            wMax = 0;
            epochSet = false;
        }
    }

    private void congestionAvoidance(long now, int ackedBytes, long smoothedRtt) {
        if (!epochSet) {
            startEpoch(now);
        }
        double t = (now - tEpoch) / 1e9;
        double rtt = smoothedRtt / 1e9;
        double target = Math.min(Math.max(wCubic(t + rtt), cwnd), 1.5 * cwnd);
        wEst += alpha * ackedBytes * maxDatagramSize / cwnd;
        if (wEst >= cwndPrior) {
            alpha = 1.0;
        }
        if (wCubic(t) < wEst) {
            cwnd = Math.max(cwnd, wEst);
        } else {
            cwnd += (target - cwnd) * ackedBytes / cwnd;
        }
    }

    /** W_cubic(t) in bytes, t in seconds since the epoch (eq. 1). */
    private double wCubic(double t) {
        double d = t - k;
        return C * d * d * d * maxDatagramSize + wMax;
    }

    private void startEpoch(long now) {
        epochSet = true;
        tEpoch = now;
        cwndEpoch = cwnd;
        if (wMax <= 0) {
            // §4.8 after a timeout, §4.10 after a slow-start exit without loss: K = 0, W_max = cwnd at the start of the epoch
            wMax = cwnd;
            k = 0;
        } else {
            k = Math.cbrt((wMax - cwndEpoch) / maxDatagramSize / C);
        }
        wEst = cwndEpoch;
        alpha = ALPHA;
    }

    @Override
    public void onLoss(LossEvent loss) {
        if (!loss.lost().isEmpty()) {
            if (slowStart.exitCovers(loss.largestLostSentTime())) {
                onCoveredLoss(loss.now());
            } else if (!recovery.covers(loss.largestLostSentTime())) {
                onCongestionEvent(loss.now());
            }
            for (PacketInfo p : loss.lost()) {
                episode.onLost(p);
            }
            lostPackets += loss.lost().size();
        }
        if (loss.persistentCongestion()) {
            finishGradualCut();
            cwnd = WindowBounds.minimumWindow(maxDatagramSize);
            recovery.clear();
            wMax = 0;
            epochSet = false;
        }
    }

    private void onCongestionEvent(long now) {
        finishGradualCut();
        if (rollback != CubicRollback.OFF) {
            checkpoint = new Checkpoint(cwnd, cwndPrior, ssthresh, wMax, k, epochSet, tEpoch, cwndEpoch, wEst, alpha,
                    recovery.snapshot(), lostPackets);
            episode.start();
        }
        recovery.enter(now);
        if (fastConvergence && (cwnd < wMax || convergeAtNextEvent)) {
            wMax = cwnd * (1 + BETA) / 2;
        } else {
            wMax = cwnd;
        }
        convergeAtNextEvent = false;
        cwndPrior = cwnd;
        ssthresh = Math.max((long) (cwnd * BETA), WindowBounds.minimumWindow(maxDatagramSize));
        long floor = slowStart.congestionFloor((long) cwnd);
        if (floor > ssthresh && floor < cwnd) {
            ssthresh = floor;
        }
        cwnd = ssthresh;
        epochSet = false;
        slowStart.stop();
    }

    private boolean quicheRollbackDue() {
        if (checkpoint == null || !recovery.started()) {
            return false;
        }
        long newLost = lostPackets - checkpoint.lostPackets;
        long threshold = Math.max(QUICHE_MIN_ROLLBACK_THRESHOLD,
                ((long) cwnd / maxDatagramSize) * QUICHE_ROLLBACK_THRESHOLD_PERCENT / 100);
        return newLost < threshold;
    }

    private boolean restoreQuicheCheckpoint() {
        Checkpoint c = checkpoint;
        if (c.cwnd < c.ssthresh || cwnd >= c.cwnd) {
            // never back into slow start; nothing to restore once cwnd regrew
            return false;
        }
        cwnd = c.cwnd;
        ssthresh = c.ssthresh;
        wMax = c.wMax;
        k = c.k;
        epochSet = c.epochSet;
        tEpoch = c.tEpoch;
        cwndEpoch = c.cwndEpoch;
        recovery.restore(c.recovery);
        rollbacks++;
        return true;
    }

    @Override
    public void onSpuriousLoss(long now, PacketInfo packet) {
        if (rollback != CubicRollback.RFC9438 || !episode.onSpurious(packet)) {
            return;
        }
        Checkpoint c = checkpoint;
        // RFC 9438 §4.9.2: restore only while cwnd is below cwnd_prior
        if (c != null && cwnd < cwndPrior) {
            cwnd = c.cwnd;
            cwndPrior = c.cwndPrior;
            ssthresh = c.ssthresh;
            wMax = c.wMax;
            k = c.k;
            epochSet = c.epochSet;
            tEpoch = c.tEpoch;
            cwndEpoch = c.cwndEpoch;
            wEst = c.wEst;
            alpha = c.alpha;
            rollbacks++;
        }
    }

    @Override
    public void onAppLimited(long now, boolean appLimited) {
        if (appLimited && !appLimitedPhase) {
            appLimitedSince = now;
        } else if (!appLimited && appLimitedPhase && epochSet) {
            tEpoch += now - appLimitedSince;
        }
        appLimitedPhase = appLimited;
    }

    @Override
    public void onMaxDatagramSizeChanged(int maxDatagramSize) {
        boolean smaller = maxDatagramSize < this.maxDatagramSize;
        this.maxDatagramSize = maxDatagramSize;
        if (smaller) {
            // RFC 9002 §7.2: a size decreased during the handshake (the peer's max_udp_payload_size) sets the window
            // to the initial window recalculated with it
            cwnd = WindowBounds.initialWindow(maxDatagramSize);
        }
        cwnd = Math.max(cwnd, WindowBounds.minimumWindow(maxDatagramSize));
    }

    @Override
    public Map<String, Object> qlogState() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("w_max", (long) wMax);
        m.put("k_ms", k * 1000);
        m.put("w_est", (long) wEst);
        m.put("cwnd_prior", (long) cwndPrior);
        m.put("rollback", rollback.optionValue());
        m.put("rollbacks", rollbacks);
        slowStart.putQlogState(m);
        return m;
    }
}
