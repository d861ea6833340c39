package org.pacelab.quic.cc;

import java.util.Map;

/**
 * Leaves slow start at the queue's onset ({@link QueueOnset}: the RTT above its minimum for a run of consecutive ACKs
 * within the round) but continues with a window from the delivery rate measured in slow start instead of the window at
 * the onset: max(onset's window, max delivery rate × minimum RTT), at most the window then. The queue's onset says the
 * pacer (2·cwnd/srtt in slow start) now sends faster than the bottleneck, i.e. the window has passed about half the
 * BDP; from then on the ACKs arrive at the bottleneck rate, so the delivery-rate samples
 * (draft-cheng-iccrg-delivery-rate-estimation, the same samples BBR's full-pipe estimate reads) measure it, and the
 * window that fills the pipe without a queue is that rate times the minimum RTT. Leaving with the onset's window alone
 * lets CUBIC start its epoch (RFC 9438 §4.10: K = 0, W_max = cwnd) below the BDP and grow back slowly: the goodput the
 * {@code onset} rule lost at small buffers and small BDPs.
 *
 * <p>The exit also covers the packets already in flight ({@link #exitCoversInFlight}): when the onset is seen late
 * (a fast path where a round lasts a few ms), the window sent before the exit may already overflow the buffer; their
 * losses are the congestion this exit responded to, so they start no congestion event (one reduction per round, the
 * reason of RFC 9002 §7.3.2's recovery period). Delivery-rate samples taken while application-limited count only when
 * they raise the maximum (they underestimate, never overestimate, the path; BBR's rule).
 *
 * <p>The rate of the run's ACKs is taken only between ACKs that show the bottleneck busy: an ACK whose packet waited
 * in the queue ({@code sample − minRTT}) at least as long as the time since the previous ACK arrived behind the
 * previous ACK's packet, so the bottleneck sent without pause in between and the ACKs' spacing is its rate (a pair
 * further apart says how fast the sender sent, not what the path carries, and the bottleneck idled: the count starts
 * again). The run's rate is its bytes over the longer of its ACKs' span and the span in which the packets they
 * acknowledged were sent (from the first packet of the run's first ACK, so one packet's sending time short), the
 * delivery-rate estimator's guard against ACK compression (draft-cheng-iccrg-delivery-rate-estimation:
 * {@code send_elapsed} beside {@code ack_elapsed}): a receiver that fell behind sends its ACKs bunched, each with a
 * queue-sized sample, and their spacing alone read as the path's rate (relay, quic-steps, 2026-12-05, replayed from
 * the server's qlog: after RTT samples of up to 67 ms at a window below the BDP, the check's confirming run was seven
 * ACKs, some 60 µs apart, 27.6 kB in 2.5 ms: 11.0 MB/s on a 5 MB/s path; the exit's window was 595 kB, 11.0 MB/s ×
 * (40.3 ms + ½ × 27.2 ms), three BDPs, and 517 packets were lost. Those packets had been sent over 3.9 ms: 7.0 MB/s
 * with this guard, an exit near 380 kB, still above the 315 kB the path holds). A run that does not end in
 * {@value #MIN_BUSY_ACKS} such ACKs in a row is no standing queue but the sender's
 * own bursts (a pacing quantum of two packets waits one packet's time at a slow bottleneck, above the threshold at
 * 10 Mbit/s; the initial window's burst, whose queue drains before the next round): slow start goes on and the onset
 * detector starts a new run.
 *
 * <p>A check before leaving (after RFC 9406 §4.3's Conservative Slow Start): at the first onset the window goes down to
 * the estimate (not below {@link HyStart#LOW_WINDOW} packets) but slow start goes on. The ACKs of packets sent before
 * the cut are not looked at and grow nothing (they met the queue the larger window built); from the next round on
 * the window grows by a quarter of the bytes acknowledged ({@link #CSS_GROWTH_DIVISOR}) and the onset detector runs
 * again. If it confirms a standing queue within {@value #CSS_ROUNDS} rounds,
 * slow start ends there ({@link #exitWindow}); if it does not, the first onset was false — the path's
 * rate rose (an LTE cell), or the queue came from a burst — and full slow start resumes with a fresh detector. The
 * check is paced at {@link #CHECK_PACING_GAIN} × the measured rate (BBR's probe), not slow start's 2 × cwnd / srtt:
 * a window at the BDP then builds a queue of at most 0.2 BDP, enough for the detector (its threshold is minRTT / 32)
 * and within a quarter-BDP buffer, where the round at gain 2 queued half the BDP and overflowed (1 Gbit/s × 40 ms ×
 * 0.25 BDP in the simulator: 1,245 drops, 362 more than without the check). On a path whose BDP the estimate hit,
 * the check costs about two rounds of quarter growth (the window at the BDP builds no queue until it grows, and that
 * queue shows a round later); if the rate rose, the delivery-rate samples rise with it and so does
 * the pacing rate, by up to the gain per round.
 *
 * <p><b>onset-bdp-queue</b> ({@link #OnsetBdp(long, boolean, boolean)} with {@code standingQueue}): the same rule,
 * keeping a standing queue after the exit and the pipe full at the first loss. Why: on a variable link (the LTE
 * traces) a window at the estimate leaves the link idle when the capacity rises, where HyStart++'s overshoot leaves
 * a queue that covers it; after a loss-free exit at the BDP, CUBIC (RFC 9438 §4.10: K = 0, W_max = cwnd) grows a
 * packet per RTT, so the first loss comes late, at a window that β cuts below the BDP when the buffer is small
 * (40 Mbit/s × 40 ms × 0.25 BDP), or near the end of a transfer (10 Mbit/s × 200 ms × 0.5 BDP). Eight changes:
 * <ul>
 *   <li>a first onset whose estimate is below half the window cuts nothing ({@link #held}): the window a round
 *       earlier, half this one, went through without a queue (the onset would have shown in that round), so such an
 *       estimate measured a gap of the link (an LTE cell's) or a rate that has since risen, not what the path holds.
 *       The check then runs on the held window as RFC 9406 §4.3's Conservative Slow Start does (no cut, a quarter of
 *       the growth from the next round), and its exit leaves with no less than the held window; an estimate of at
 *       least half the window is the cut as in onset-bdp. (Cutting to half the window instead lost 0.4–0.6 % of
 *       goodput against HyStart++ on the LTE traces: T-Mobile's first onset is the cell's 0.2 s gap;
 *       docs/benchmarks.md, issue 15.)</li>
 *   <li>the check is paced at {@value #CHECK_PACING_GAIN} × the larger of the measured rate and window / minimum
 *       RTT (on a path whose estimate held the two are equal);</li>
 *   <li>the exit raises the window to the estimate plus {@value #STANDING_QUEUE_SHARE} of the largest queue the
 *       rule saw (its largest queueing delay × the measured rate), a lower bound on the buffer: that queue stands
 *       after the exit ({@link #exitRaise}); the round that carries the raise is covered as the exit's;</li>
 *   <li>the first congestion event after the check's exit, at a window above {@value #FLOOR_MARGIN} × the
 *       estimate, reduces the window no lower than the estimate ({@link #congestionFloor}): the loss says the buffer
 *       filled above a pipe the rule measured, and the estimate drains that queue and keeps the pipe full, where β
 *       from a buffer of less than 0.43 BDP would go below it. Later congestion events are CUBIC's or NewReno's
 *       own. A congestion event at a window within the margin (the tail of an overflow the exit answered) takes the
 *       estimate too, without using the floor up.</li>
 *   <li>CUBIC's first congestion event after the exit takes fast convergence (RFC 9438 §4.7: W_max = cwnd × (1 + β)
 *       / 2; {@link #convergeAfterExit}), though RFC 9438 §4.10 left W_max at the exit's window, below the window
 *       then: slow start passed what the path holds before the rule cut the window, so that loss is the second sign
 *       of the same limit. HyStart++'s overshoot gives CUBIC a W_max above the path, so its second congestion event
 *       converges and CUBIC's plateau lies below what the path holds; without it the plateau lay at the loss's
 *       window and the next loss came seconds earlier (ATT driving trace, seed 3: W_max 191 packets against
 *       HyStart++'s 162, a loss when the cell's rate fell at 8 s and a 1.1 s recovery).</li>
 *   <li>a loss of a packet sent before the first onset's cut, declared while the check runs, leaves the window and
 *       the check as they are ({@link #windowAfterCoveredLoss}) and is the rule's one answer to a covered loss: the
 *       cut answered slow start's overflow; lowering to the estimate there ended slow start without the exit's raise
 *       and floor (ATT driving trace, seeds 3 and 4). A covered loss after the exit then lowers nothing: where the
 *       busy ACK rate overestimated the path (40 Mbit/s × 200 ms × 0.25 BDP, 67 Mbit/s), lowering to that estimate
 *       extended the cover by a round of a window still above what the path holds (7,817 drops instead of 1,431).</li>
 *   <li>once the rule has ended after its first onset (the check's exit or a congestion event), the connection is paced at
 *       {@value #CHECK_PACING_GAIN} × cwnd / the least RTT sample of the current and the previous round
 *       ({@link RoundMinRtt}; min_rtt until the first ACK after the end) instead of the pacer's 1.25 × cwnd /
 *       smoothed_rtt ({@link #pacingRateAfterEnd}; RFC 9002 §7.7 leaves the rate to the sender and gives N × cwnd /
 *       smoothed_rtt as an example, "N ... at least 1 ... ensures that variations in RTT do not result in
 *       underutilization of the congestion window"). The rule keeps a standing queue, so smoothed_rtt carries it, and
 *       after each reduction of the window (the exit's, a congestion event's) it still carries the larger queue of
 *       the window before: cwnd / smoothed_rtt then lies below the bottleneck's rate and the pacer, not the window,
 *       limits what is in flight until the queue has drained and the link idles (ATT driving trace, NewReno: 44
 *       packets in flight of a 78-packet window at a 250 ms smoothed RTT, 40 ms minimum; CUBIC: the cell's rate
 *       rose 1.8-fold in the round after the exit and a pacer at 1.25 × the old rate let the queue run empty). The
 *       round's least sample drops with the queue within a round. Not min_rtt either: where a queue stands
 *       after a reduction, 1.25 × cwnd / min_rtt is well above the bottleneck's rate (100 Mbit/s × 10 ms × 0.5 BDP:
 *       146 Mbit/s, median), its bursts fill a small buffer early, and the congestion events came at 158–161 kB
 *       instead of 171–186 kB (2.5 % of goodput below HyStart++; docs/benchmarks.md, issue 15). With the round's
 *       least sample the rate is 1.25 × what the window drains at while a queue stands (BBR's probing gain), and
 *       1.25 × cwnd / min_rtt when none does, so the window and the ACK clock set what is in flight, while the pacer
 *       still spreads what the window allows. Not after a slow start that a loss ended before any onset (the rule
 *       never ran; a path whose buffer is too small for the onset, 10 and 40 Mbit/s × 10 ms × 0.25 BDP): there the
 *       window stands at what the tiny buffer holds, and bursts at 1.25 × cwnd / min_rtt cost 1–7 % of goodput in
 *       the simulator.</li>
 *   <li>with CUBIC, a first onset's cut with more in flight than the estimate plus the largest queue seen is taken
 *       gradually ({@link #gradualCutAbove}, {@link GradualCut}: RFC 6937's proportional rate reduction, down to that
 *       bound, within the round after the cut; the packets sent meanwhile are covered as the cut's), and the check's
 *       detector then skips the round after the cut's ({@link #onGradualCut}). In flight above that bound cannot all
 *       be in the path if the buffer holds what the rule saw queued: where the onset came a round late, it is slow
 *       start's overflow, lost but declared only a round later, and a cut at once kept the sender silent for it while
 *       the queue drained (1 Gbit/s × 10 ms × 0.5 BDP: 3.3 ms of idle link, 0.5 % of goodput; docs/benchmarks.md,
 *       issue 15). NewReno cuts at once as before.</li>
 * </ul>
 */
public final class OnsetBdp implements SlowStartExit {
    /** ACKs of a run that must show the bottleneck busy before the onset counts. */
    public static final int MIN_BUSY_ACKS = 4;
    /** Rounds after the cut in which a second onset must come, or slow start resumes. */
    public static final int CSS_ROUNDS = 3;
    /** Growth after the cut: the bytes acknowledged divided by this (RFC 9406 §4.3's CSS_GROWTH_DIVISOR). */
    public static final int CSS_GROWTH_DIVISOR = HyStartPlusPlus.CSS_GROWTH_DIVISOR;

    /**
     * The check's pacing rate over the measured bottleneck rate: BBR's ProbeBW_UP pacing gain (draft-ietf-ccwg-bbr,
     * "ProbeBW_UP"). A window at the BDP sent at this rate queues at most 0.2 BDP; at slow start's gain 2
     * × cwnd / srtt it queued half the BDP, which overflowed a quarter-BDP buffer in the check's first round.
     */
    public static final double CHECK_PACING_GAIN = BbrV3Controller.PROBE_BW_UP_PACING_GAIN;

    /** onset-bdp-queue: the share of the largest queue seen that stands after the exit. */
    public static final double STANDING_QUEUE_SHARE = 0.5;
    /** onset-bdp-queue: the window over the estimate above which a congestion event uses up the floor. */
    public static final double FLOOR_MARGIN = 1.1;

    /** Where the rule is. */
    public enum Phase { SLOW_START, CHECK, DONE }

    private final QueueOnset onset;
    private Phase phase = Phase.SLOW_START;
    private long maxDeliveryRate;
    private long lastAckTime = -1;
    private int busyAcks;
    private long busyBytes;
    private long busyTime;
    /** When the first packet the busy run's first ACK acknowledged was sent; {@link Long#MIN_VALUE} outside a run. */
    private long busySendStart = Long.MIN_VALUE;
    /** From {@link #busySendStart} to the sending of the last packet the run acknowledged. */
    private long busySendTime;
    private long busyRate = -1;
    private int rejectedOnsets;
    private int resumes;
    private long bdpEstimate = -1;
    private long pendingCut = -1;
    private long cutWindow = -1;
    private final SendTimeRound checkRound = new SendTimeRound(0);
    private int checkRounds;
    /** Rounds of the check after the cut's whose ACKs the detector does not look at: 1 after a gradual cut. */
    private int skippedRounds;
    private long cssCarry;
    private boolean coveredLossSeen;
    private long minWindow;
    private final boolean standingQueue;
    private long maxQueueDelay;
    private long lastWindow;
    private boolean leftByCheck;
    private boolean floorUsed;
    private boolean held;
    private boolean checked;
    private long minRtt = Long.MAX_VALUE;
    private final RoundMinRtt roundMinRtt = new RoundMinRtt();

    /** onset-bdp. @see QueueOnset#QueueOnset(long, boolean) */
    public OnsetBdp(long minDelay, boolean paced) {
        this(minDelay, paced, false);
    }

    /**
     * @param standingQueue onset-bdp-queue (see the class comment) instead of onset-bdp
     * @see QueueOnset#QueueOnset(long, boolean)
     */
    public OnsetBdp(long minDelay, boolean paced, boolean standingQueue) {
        this.onset = new QueueOnset(minDelay, paced);
        this.standingQueue = standingQueue;
    }

    /** Whether this is onset-bdp-queue. */
    public boolean standingQueue() { return standingQueue; }

    /** The largest queueing delay (RTT sample minus the minimum) seen while the rule ran, ns. */
    public long maxQueueDelay() { return maxQueueDelay; }

    /** The rate the estimate was taken at, bytes per second: the larger of the max delivery rate and the busy ACK rate. */
    private long measuredRate() {
        return Math.max(maxDeliveryRate, busyRate);
    }

    /** The highest delivery rate seen in slow start, bytes per second. */
    public long maxDeliveryRate() { return maxDeliveryRate; }

    /** The BDP estimate (max delivery rate, busy ACK rate) × min RTT of the last onset taken, bytes; -1 before. */
    public long bdpEstimate() { return bdpEstimate; }

    /** The onset detector (its minimum RTT and the delay that ended slow start). */
    public QueueOnset onset() { return onset; }

    public Phase phase() { return phase; }

    /** onset-bdp-queue: whether the current (or last) check runs on a held window: its first onset cut nothing. */
    public boolean held() { return held; }

    /** Times the check after a cut saw no second onset and full slow start resumed. */
    public int resumes() { return resumes; }

    /**
     * The rate of the last taken run's ACKs that showed the bottleneck busy, bytes per second (their bytes over the time
     * since each one's previous ACK); -1 before.
     */
    public long busyAckRate() { return busyRate; }

    /** Onsets confirmed by the delay but not taken: the run did not end in ACKs that showed the bottleneck busy. */
    public int rejectedOnsets() { return rejectedOnsets; }

    @Override
    public void onPacketSent(PacketInfo packet) {}

    @Override
    public boolean conservative() { return phase == Phase.CHECK; }

    /** In the check: {@value #CHECK_PACING_GAIN} × the bottleneck rate measured so far (see the class comment). */
    @Override
    public long pacingRate() {
        if (phase != Phase.CHECK) {
            return 0;
        }
        long rate = measuredRate();
        if (standingQueue && onset.minRtt() != Long.MAX_VALUE) {
            rate = Math.max(rate, (long) (lastWindow * 1e9 / onset.minRtt()));
        }
        return (long) (CHECK_PACING_GAIN * rate);
    }

    @Override
    public long increase(long ackedBytes) {
        if (phase != Phase.CHECK) {
            return ackedBytes;
        }
        if (checkRounds == 0) {
            return 0;
        }
        long total = cssCarry + ackedBytes;
        cssCarry = total % CSS_GROWTH_DIVISOR;
        return total / CSS_GROWTH_DIVISOR;
    }

    @Override
    public boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        if (phase == Phase.DONE) {
            return false;
        }
        lastWindow = congestionWindow;
        noteMinRtt(ack);
        RateSample rs = ack.rateSample();
        if (rs != null && rs.deliveryRate() > maxDeliveryRate) {
            maxDeliveryRate = rs.deliveryRate();
        }
        long sample = ack.rtt().latestRtt();
        if (sample > 0 && onset.minRtt() != Long.MAX_VALUE) {
            maxQueueDelay = Math.max(maxQueueDelay, sample - onset.minRtt());
        }
        if (phase == Phase.CHECK && !checkRound(ack)) {
            return false;
        }
        if (!onsetTaken(ack, congestionWindow, maxDatagramSize)) {
            return false;
        }
        minWindow = (long) HyStart.LOW_WINDOW * maxDatagramSize;
        busyRate = (long) (busyBytes * 1e9 / Math.max(busyTime, busySendTime));
        bdpEstimate = (long) ((double) Math.max(maxDeliveryRate, busyRate) * onset.minRtt() / 1e9);
        if (phase == Phase.CHECK) {
            phase = Phase.DONE;
            leftByCheck = true;
            return true;
        }
        pendingCut = Math.min(congestionWindow, Math.max(bdpEstimate, minWindow));
        held = standingQueue && bdpEstimate < congestionWindow / 2;
        if (held) {
            // a gap of the link, not its rate: the window is held, the check runs on it (see the class comment)
            pendingCut = -1;
        }
        cutWindow = held ? congestionWindow : pendingCut;
        checked = true;
        phase = Phase.CHECK;
        checkRound.restart(ack.now());
        checkRounds = 0;
        skippedRounds = 0;
        cssCarry = 0;
        restartDetector();
        return false;
    }

    /**
     * Counts the rounds of the check (a round ends with the ACK of a packet sent after it began; the first, the
     * packets sent before the cut, is not looked at) and resumes slow start after {@value #CSS_ROUNDS}; true when this
     * ACK goes to the detector.
     */
    private boolean checkRound(AckEvent ack) {
        if (checkRound.ends(ack)) {
            if (++checkRounds > CSS_ROUNDS + skippedRounds) {
                phase = Phase.SLOW_START;
                resumes++;
                restartDetector();
                return true;
            }
        }
        return checkRounds > skippedRounds;
    }

    /** Feeds the detector; true when it confirms an onset whose run ended in ACKs that showed the bottleneck busy. */
    private boolean onsetTaken(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        long previousAck = lastAckTime;
        boolean confirmed = onset.onAck(ack, congestionWindow, maxDatagramSize);
        long sample = ack.rtt().latestRtt();
        if (sample <= 0) {
            return false;
        }
        lastAckTime = ack.now();
        if (onset.run() <= 1 && !confirmed) {
            resetBusy();
        } else if (previousAck >= 0) {
            long gap = ack.now() - previousAck;
            if (sample - onset.minRtt() >= gap) {
                noteBusySending(ack);
                busyAcks++;
                busyBytes += ack.ackedBytes();
                busyTime += gap;
            } else {
                resetBusy();
            }
        }
        if (!confirmed) {
            return false;
        }
        if (busyAcks < MIN_BUSY_ACKS || busyTime <= 0) {
            rejectedOnsets++;
            restartDetector();
            return false;
        }
        return true;
    }

    /**
     * Extends the busy run's sending span to the last packet {@code ack} acknowledged: from the first packet of the
     * run's first ACK, so the span lacks one packet's sending time and reads no longer than the ACKs' own span where
     * the sender kept pace with the bottleneck (its ACKs then set the rate, as before).
     */
    private void noteBusySending(AckEvent ack) {
        if (ack.acked().isEmpty()) {
            return;
        }
        if (busyAcks == 0) {
            long first = Long.MAX_VALUE;
            for (PacketInfo p : ack.acked()) {
                first = Math.min(first, p.timeSent());
            }
            busySendStart = first;
        }
        if (busySendStart != Long.MIN_VALUE) {
            busySendTime = Math.max(busySendTime, ack.largestAcked().timeSent() - busySendStart);
        }
    }

    private void restartDetector() {
        onset.rearm();
        resetBusy();
    }

    private void resetBusy() {
        busyAcks = 0;
        busyBytes = 0;
        busyTime = 0;
        busySendStart = Long.MIN_VALUE;
        busySendTime = 0;
    }

    @Override
    public long windowCut() {
        long w = phase == Phase.DONE ? -1 : pendingCut;
        pendingCut = -1;
        return w;
    }

    /**
     * The larger of the check's estimate, the cut's window and the window when the check's confirming run began (a
     * queue stood then). An estimate below the BDP costs more than a window a little above it: CUBIC grows from the
     * exit at one packet per RTT (its epoch starts with K = 0 and cwnd_prior = cwnd), so at 100 Mbit/s × 200 ms × 0.25
     * BDP an exit at 0.91 BDP ran the 64 MiB at 70.6 Mbit/s against HyStart++'s 73.8.
     */
    @Override
    public long exitWindow(long congestionWindow) {
        return Math.min(congestionWindow, Math.max(onset.exitWindow(congestionWindow), Math.max(cutWindow, bdpEstimate)));
    }

    /** onset-bdp-queue: the estimate plus {@value #STANDING_QUEUE_SHARE} of the largest queue seen; -1 for onset-bdp. */
    @Override
    public long exitRaise() {
        if (!standingQueue || bdpEstimate <= 0) {
            return -1;
        }
        return bdpEstimate + (long) (STANDING_QUEUE_SHARE * measuredRate() * (maxQueueDelay / 1e9));
    }

    /** onset-bdp-queue: the estimate, at the first congestion event after the check's exit (see the class comment). */
    @Override
    public long congestionFloor(long congestionWindow) {
        if (!standingQueue || !leftByCheck || floorUsed || bdpEstimate <= 0) {
            return -1;
        }
        if (congestionWindow > FLOOR_MARGIN * bdpEstimate) {
            floorUsed = true;
        }
        return bdpEstimate;
    }

    @Override
    public long windowAfterCoveredLoss(long congestionWindow) {
        if (coveredLossSeen || bdpEstimate <= 0) {
            return congestionWindow;
        }
        coveredLossSeen = true;
        if (standingQueue && phase == Phase.CHECK) {
            // slow start's overflow, lost while the check runs: the check's cut answered it, the check goes on
            return congestionWindow;
        }
        return Math.min(congestionWindow, Math.max(bdpEstimate, minWindow));
    }

    /** onset-bdp-queue: the first congestion event after the exit takes fast convergence (see the class comment). */
    @Override
    public boolean convergeAfterExit() {
        return standingQueue;
    }

    /**
     * onset-bdp-queue, once the rule has ended after its first onset (by the check's exit or a congestion event):
     * {@value #CHECK_PACING_GAIN} × cwnd / the least RTT sample of this round and the last since the end (min_rtt
     * before the first; see the class comment); 0 for onset-bdp, before an RTT sample, and when slow start ended by a
     * loss before any onset (the rule then kept no queue).
     */
    @Override
    public long pacingRateAfterEnd(long congestionWindow) {
        if (!standingQueue || !checked || phase != Phase.DONE || minRtt == Long.MAX_VALUE || minRtt <= 0) {
            return 0;
        }
        long recent = roundMinRtt.value();
        long rtt = recent == Long.MAX_VALUE ? minRtt : Math.max(minRtt, recent);
        return (long) (CHECK_PACING_GAIN * congestionWindow * 1e9 / rtt);
    }

    @Override
    public void onAckAfterEnd(AckEvent ack) {
        noteMinRtt(ack);
        roundMinRtt.onAck(ack);
    }

    /** The connection's min_rtt (RFC 9002 §5.2) as of this ACK. */
    private void noteMinRtt(AckEvent ack) {
        if (ack.rtt().hasSample() && ack.rtt().minRtt() > 0) {
            minRtt = ack.rtt().minRtt();
        }
    }

    /**
     * onset-bdp-queue: the estimate plus the largest queue seen (its delay × the measured rate), once an onset has
     * given an estimate; -1 for onset-bdp and before. In flight above it cannot all be in the path if the buffer holds
     * no more than the rule saw queued: the rest is slow start's overflow, lost but not yet declared, or a queue the
     * samples have not shown yet; a cut at once would wait for it (see the class comment).
     */
    @Override
    public long gradualCutAbove() {
        if (!standingQueue || bdpEstimate <= 0) {
            return -1;
        }
        return bdpEstimate + (long) (measuredRate() * (maxQueueDelay / 1e9));
    }

    /**
     * The check's detector does not look at the round after the cut's either: its ACKs are of packets sent while the
     * window still fell, into the queue the window before the cut built, and would confirm that queue rather than one
     * the cut's window builds; the check then runs a round longer ({@value #CSS_ROUNDS} rounds looked at, as after a
     * cut at once).
     */
    @Override
    public void onGradualCut() {
        skippedRounds = 1;
    }

    @Override
    public boolean exitCoversInFlight() {
        return true;
    }

    @Override
    public void stop() {
        phase = Phase.DONE;
        onset.stop();
    }

    @Override
    public boolean active() {
        return phase != Phase.DONE;
    }

    @Override
    public void putQlogState(Map<String, Object> m) {
        m.put("slow_start_rule", (standingQueue ? SlowStartRule.ONSET_BDP_QUEUE : SlowStartRule.ONSET_BDP).optionValue());
        m.put("onset_bdp_phase", phase.name().toLowerCase(java.util.Locale.ROOT));
        if (onset.exitDelay() >= 0) {
            m.put("onset_delay_ms", onset.exitDelay() / 1e6);
        }
        if (bdpEstimate >= 0) {
            m.put("onset_bdp_bytes", bdpEstimate);
        }
        if (rejectedOnsets > 0) {
            m.put("onset_rejected", rejectedOnsets);
        }
        if (resumes > 0) {
            m.put("onset_resumes", resumes);
        }
        if (standingQueue) {
            m.put("onset_max_queue_ms", maxQueueDelay / 1e6);
            if (held) {
                m.put("onset_held", true);
            }
        }
    }
}
