package org.pacelab.quic.cc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.random.RandomGenerator;

/**
 * BBRv3 as specified by draft-ietf-ccwg-bbr (the editor's copy of 2026; section names below are the
 * draft's). Method names follow the draft's pseudocode (UpdateModelAndState, SetCwnd, ...), in Java case.
 *
 * <p>Inputs, as plain values: the {@link RateSample} of each ACK ({@link AckEvent#rateSample()}), the connection's
 * C.delivered and C.lost as each event reports them ({@link AckEvent#delivered()}, {@link LossEvent#delivered()},
 * {@link LossEvent#totalLost()}, {@link PacketInfo#delivered()}) and each sent packet's delivery state
 * ({@link PacketInfo}). The one thing it asks of the connection's delivery-rate estimation is MarkConnectionAppLimited
 * in ProbeRTT, through the callback it is given. Outputs: {@link #congestionWindow()},
 * {@link #pacingRate()} (pacing_gain * bw * (1 - 1%)) and {@link #sendQuantum()} (pacing_rate * 1 ms,
 * bounded by 2*mds and 64 KiB). Randomness (the ProbeBW wait, §"Time Scale for Bandwidth Probing") is
 * injected.
 *
 * <p>Mapping to QUIC and interpretations (see quic/README.md, "Congestion control and pacing"):
 * <ul>
 *   <li>Loss recovery is RFC 9002's recovery period: a loss of a packet sent after the current period
 *       started is OnEnterFastRecovery (SaveCwnd, SaveStateUponLoss); the period ends, with RestoreCwnd,
 *       when a packet sent after its start is acknowledged. Persistent congestion is OnEnterRTO:
 *       cwnd = bytes in flight + 1 mds.</li>
 *   <li>CheckStartupHighLoss (described in prose only): at the end of a loss round in Startup, exit to
 *       Drain when the round had at least 6 discontiguous lost packet-number ranges and the loss rate of the
 *       round exceeds 2% (IsInflightTooHigh on the ACK's sample); QUIC always has selective ACKs.</li>
 *   <li>IsRenoCoexistenceProbeTime uses TargetInflight() in packets (bytes / mds).</li>
 *   <li>CheckFullBWReached ignores samples without a delivery rate (interval shorter than min_rtt), so an
 *       unreliable sample cannot count as a round without growth.</li>
 *   <li>A loss episode is spurious when every packet declared lost in it is acknowledged after all
 *       ({@link #onSpuriousLoss}); then HandleSpuriousLossDetection runs.</li>
 * </ul>
 */
public final class BbrV3Controller implements CongestionController {
    /** BBR.StartupPacingGain = 4 ln 2. */
    public static final double STARTUP_PACING_GAIN = 4 * Math.log(2);
    public static final double DRAIN_PACING_GAIN = 0.5;
    public static final double DEFAULT_CWND_GAIN = 2.0;
    public static final double PROBE_BW_DOWN_PACING_GAIN = 0.90;
    public static final double PROBE_BW_CRUISE_PACING_GAIN = 1.0;
    public static final double PROBE_BW_REFILL_PACING_GAIN = 1.0;
    public static final double PROBE_BW_UP_PACING_GAIN = 1.25;
    public static final double PROBE_BW_UP_CWND_GAIN = 2.25;
    public static final double PROBE_RTT_CWND_GAIN = 0.5;
    public static final double PACING_MARGIN = 0.01;
    public static final double LOSS_THRESH = 0.02;
    public static final double BETA = 0.7;
    public static final double HEADROOM = 0.15;
    public static final int MAX_BW_FILTER_LEN = 2;
    public static final int EXTRA_ACKED_FILTER_LEN = 10;
    public static final int STARTUP_FULL_LOSS_COUNT = 6;
    public static final long MIN_RTT_FILTER_LEN = 10_000_000_000L;
    public static final long PROBE_RTT_INTERVAL = 5_000_000_000L;
    public static final long PROBE_RTT_DURATION = 200_000_000L;
    public static final long SEND_QUANTUM_MAX = 64 * 1024;

    private static final long INFINITY = Long.MAX_VALUE;

    private enum AckPhase { INIT, REFILLING, PROBE_STARTING, PROBE_FEEDBACK, PROBE_STOPPING }

    /** MarkConnectionAppLimited(): C.app_limited from the connection's C.delivered and the bytes in flight given. */
    private final LongConsumer markConnectionAppLimited;
    /** C.delivered as the latest event reported it (it changes only with an ACK, which reports it). */
    private long delivered;
    private final RandomGenerator random;
    private int mds;
    private long initialCwnd;
    private final RecoveryPeriod recovery = new RecoveryPeriod();
    private final LossEpisode episode = new LossEpisode();

    // connection control parameters (C.*)
    private long cwnd;
    private long pacingRate;
    private long sendQuantum;
    private long inflight;
    private boolean cwndLimitedThisRound;
    private boolean cwndLimitedLastRound;

    // general state
    private boolean initialized;
    private boolean pacingRateFromSrtt;
    private BbrState state = BbrState.STARTUP;
    private double pacingGain;
    private double cwndGain;
    private long roundCount;
    private boolean roundStart;
    private long nextRoundDelivered;
    private boolean idleRestart;
    private long drainStartRound;

    // data rate model
    private final WindowedMaxFilter maxBwFilter = new WindowedMaxFilter(MAX_BW_FILTER_LEN);
    private long maxBw;
    private long bwShortterm = INFINITY;
    private long bw;
    private long cycleCount;

    // data volume model
    private long minRtt = INFINITY;
    private long minRttStamp;
    private long extraAcked;
    private long extraAckedIntervalStart;
    private long extraAckedDelivered;
    private final WindowedMaxFilter extraAckedFilter = new WindowedMaxFilter(EXTRA_ACKED_FILTER_LEN);
    private long maxInflight;
    private long inflightLongterm = INFINITY;
    private long inflightShortterm = INFINITY;

    // congestion signals
    private long bwLatest;
    private long inflightLatest;
    private long lossRoundDelivered;
    private boolean lossRoundStart;
    private boolean isLossInRound;
    private int lossRangesInRound;

    // Startup
    private String startupExit;
    private boolean fullBwReached;
    private boolean fullBwNow;
    private long fullBw;
    private int fullBwCount;

    // ProbeBW
    private AckPhase ackPhase = AckPhase.INIT;
    private boolean isBwProbeSample;
    private long bwProbeUpAcked;
    private long probeUpAckedPerInc = INFINITY;
    private int bwProbeUpRounds;
    private long roundsSinceProbeUp;
    private long bwProbeWait;
    private long cycleStamp;
    private boolean prevProbeTooHigh;
    private boolean prevProbePrecautionary;

    // undo
    private BbrState undoState;
    private long undoBwShortterm;
    private long undoInflightShortterm;
    private long undoInflightLongterm;
    private long priorCwnd;

    // ProbeRTT
    private long probeRttMinDelay = INFINITY;
    private long probeRttMinStamp;
    private boolean probeRttExpired;
    private boolean probeRttDoneStampSet;
    private long probeRttDoneStamp;
    private boolean probeRttRoundDone;

    /**
     * {@code --slow-start onset}: the queue's onset also ends Startup and ProbeBW_UP (see checkQueueOnset); null
     * for the draft's checks only (bandwidth plateau, loss).
     */
    private final QueueOnset queueOnset;
    private boolean onsetArmedForUp;
    /** The queue's onset ended Startup and the first ProbeBW_REFILL has not started yet. */
    private boolean probeAfterOnsetExit;
    /**
     * inflight_longterm is the queue's onset's bound (set when the onset ended Startup) and no loss has set it since:
     * an onset that ends a ProbeBW_UP raises it by {@link #ONSET_BOUND_GROWTH}.
     */
    private boolean inflightLongtermFromOnset;
    /** BBR.max_bw when the current ProbeBW_UP started. */
    private long upStartMaxBw;
    /** The highest delivery rate of the current ProbeBW_UP's own samples (ack phase PROBE_FEEDBACK), bytes/s. */
    private long upMaxDeliveryRate;
    /**
     * {@code --slow-start onset}: a queue's onset in ProbeBW_UP ends the probe only when the probe's own delivery rate
     * samples stayed below this multiple of max_bw at its start (UP paces at 1.25: a saturated bottleneck delivers
     * about 1.0, a path with room about 1.24); above it BBR returns to Startup.
     */
    public static final double ONSET_PROBE_GROWTH = 1.125;
    /**
     * {@code --slow-start onset}: while inflight_longterm is the onset's bound (no loss has set it), each ProbeBW_UP
     * that the onset ends multiplies it by this factor. The onset bound is about one BDP plus the onset's few packets
     * of queue, and the onset ends UP before the draft's upward probing (ProbeInflightLongtermUpward) raises it, so
     * without this it stays for the whole transfer: CRUISE then runs at 0.85 of it, near or below one BDP, which
     * costs goodput where ACKs come in bursts or the capacity varies. The draft's loss rules end the growth: a
     * loss that takes the loss rate above 2 % sets the bound as the draft has it (HandleInflightTooHigh).
     */
    public static final double ONSET_BOUND_GROWTH = 1.5;

    /** As {@link #BbrV3Controller(int, LongConsumer, RandomGenerator, QueueOnset)} with the draft's probing. */
    public BbrV3Controller(int maxDatagramSize, LongConsumer markConnectionAppLimited, RandomGenerator random) {
        this(maxDatagramSize, markConnectionAppLimited, random, null);
    }

    /**
     * @param maxDatagramSize C.SMSS, bytes
     * @param markConnectionAppLimited the connection's MarkConnectionAppLimited (draft §"Delivery Rate Samples"),
     *                        given the bytes in flight; BBR calls it in ProbeRTT to ignore that phase's low-rate samples
     * @param random          source for the randomised ProbeBW wait
     * @param queueOnset      when not null, the onset of a queue ({@link QueueOnset}: the RTT above its minimum for a
     *                        run of ACKs) also ends Startup (the pipe is full) and ProbeBW_UP (the probe found no more
     *                        bandwidth), beside the draft's bandwidth plateau and loss checks
     */
    public BbrV3Controller(int maxDatagramSize, LongConsumer markConnectionAppLimited, RandomGenerator random,
                           QueueOnset queueOnset) {
        this.queueOnset = queueOnset;
        this.mds = maxDatagramSize;
        this.markConnectionAppLimited = markConnectionAppLimited;
        this.random = random;
        this.initialCwnd = WindowBounds.initialWindow(maxDatagramSize);
        this.cwnd = initialCwnd;
        // OnInit's time-independent part; InitPacingRate with no srtt yet: 1 ms
        this.pacingRate = (long) (STARTUP_PACING_GAIN * initialCwnd * 1_000_000_000L / 1_000_000L);
        this.sendQuantum = 2L * maxDatagramSize;
        enterStartup();
    }

    private void initAt(long now) {
        if (initialized) {
            return;
        }
        initialized = true;
        minRttStamp = now;
        probeRttMinStamp = now;
        extraAckedIntervalStart = now;
    }

    @Override
    public String name() { return "bbr"; }

    @Override
    public long congestionWindow() { return cwnd; }

    @Override
    public long slowStartThreshold() { return INFINITY; }

    @Override
    public String state() { return state.qlogName(); }

    public BbrState bbrState() { return state; }

    @Override
    public boolean inSlowStart() { return state == BbrState.STARTUP; }

    @Override
    public long pacingRate() { return pacingRate; }

    @Override
    public long sendQuantum() { return sendQuantum; }

    public long maxBw() { return maxBw; }

    public long bw() { return bw; }

    public long minRtt() { return minRtt; }

    public double pacingGain() { return pacingGain; }

    public double cwndGain() { return cwndGain; }

    public long roundCount() { return roundCount; }

    public boolean fullBwReached() { return fullBwReached; }

    public long inflightLongterm() { return inflightLongterm; }

    /** Why Startup first ended: {@code bandwidth_plateau} or {@code loss}; null while in the first Startup. */
    public String startupExit() { return startupExit; }

    // ---------------------------------------------------------------- events

    @Override
    public void onPacketSent(long now, PacketInfo packet, long bytesInFlight) {
        initAt(now);
        inflight = bytesInFlight;
        delivered = packet.delivered();
        // OnTransmit: HandleRestartFromIdle, before this packet was in flight (C.app_limited as the packet recorded it)
        if (bytesInFlight - packet.size() <= 0 && packet.appLimited()) {
            handleRestartFromIdle(now);
        }
        if (bytesInFlight + mds > cwnd) {
            cwndLimitedThisRound = true;
        }
    }

    private void handleRestartFromIdle(long now) {
        idleRestart = true;
        extraAckedIntervalStart = now;
        if (state.isProbeBw()) {
            setPacingRateWithGain(1.0);
        } else if (state == BbrState.PROBE_RTT) {
            checkProbeRttDone(now);
        }
    }

    @Override
    public void onAck(AckEvent ack) {
        long now = ack.now();
        initAt(now);
        inflight = ack.bytesInFlight();
        delivered = ack.delivered();
        boolean wasInRecovery = recovery.inRecovery();
        for (PacketInfo p : ack.acked()) {
            recovery.onAcked(p.timeSent());
        }
        if (wasInRecovery && !recovery.inRecovery()) {
            restoreCwnd();
        }
        initPacingRateFromSrtt(ack.rtt());
        checkQueueOnset(ack);
        RateSample rs = ack.rateSample();
        if (rs == null) {
            return;
        }
        updateModelAndState(rs, now);
        updateControlParameters(rs);
    }

    /** InitPacingRate once the first RTT sample exists and no bandwidth is known yet. */
    private void initPacingRateFromSrtt(RttEstimates rtt) {
        if (pacingRateFromSrtt || rtt == null || !rtt.hasSample()) {
            return;
        }
        pacingRateFromSrtt = true;
        if (maxBw == 0) {
            pacingRate = (long) (STARTUP_PACING_GAIN * initialCwnd * 1e9 / Math.max(rtt.smoothedRtt(), 1));
        }
    }

    @Override
    public void onLoss(LossEvent loss) {
        long now = loss.now();
        initAt(now);
        inflight = loss.bytesInFlight();
        delivered = loss.delivered();
        List<PacketInfo> lost = loss.lost();
        if (!lost.isEmpty()) {
            if (!recovery.covers(loss.largestLostSentTime())) {
                // OnEnterFastRecovery
                saveCwnd();
                saveStateUponLoss();
                recovery.enter(now);
                episode.start();
            }
            lossRangesInRound += discontiguousRanges(lost);
            long cLost = loss.totalLost();
            long after = loss.lostBytes();
            for (PacketInfo p : lost) {
                episode.onLost(p);
                after -= p.size();
                handleLostPacket(p, cLost - after, now);
            }
        }
        if (loss.persistentCongestion()) {
            // OnEnterRTO
            saveCwnd();
            saveStateUponLoss();
            cwnd = loss.bytesInFlight() + mds;
        }
    }

    private static int discontiguousRanges(List<PacketInfo> lost) {
        int ranges = 0;
        PacketInfo prev = null;
        for (PacketInfo p : lost) {
            if (prev == null || prev.space() != p.space() || p.packetNumber() != prev.packetNumber() + 1) {
                ranges++;
            }
            prev = p;
        }
        return ranges;
    }

    @Override
    public void onSpuriousLoss(long now, PacketInfo packet) {
        if (episode.onSpurious(packet)) {
            handleSpuriousLossDetection();
        }
    }

    @Override
    public void onMaxDatagramSizeChanged(int maxDatagramSize) {
        // RFC 9002 §7.2: the initial window is recalculated; a smaller size (the peer's max_udp_payload_size, known
        // during the handshake) sets the window to the new initial window
        boolean smaller = maxDatagramSize < mds;
        this.mds = maxDatagramSize;
        this.initialCwnd = WindowBounds.initialWindow(maxDatagramSize);
        if (smaller) {
            cwnd = initialCwnd;
            if (!pacingRateFromSrtt && maxBw == 0) {
                pacingRate = (long) (STARTUP_PACING_GAIN * initialCwnd * 1_000_000_000L / 1_000_000L);
            }
        }
    }

    // ---------------------------------------------------------------- per-ACK steps

    private void updateModelAndState(RateSample rs, long now) {
        if (state == BbrState.PROBE_BW_UP && ackPhase == AckPhase.PROBE_FEEDBACK && !rs.isAppLimited()) {
            upMaxDeliveryRate = Math.max(upMaxDeliveryRate, rs.deliveryRate());
        }
        updateLatestDeliverySignals(rs);
        updateCongestionSignals(rs);
        updateAckAggregation(rs, now);
        checkFullBwReached(rs);
        checkStartupDone(rs);
        checkDrainDone(now);
        updateProbeBwCyclePhase(rs, now);
        updateMinRtt(rs, now);
        checkProbeRtt(rs, now);
        advanceLatestDeliverySignals(rs);
        boundBwForModel();
    }

    private void updateControlParameters(RateSample rs) {
        setPacingRate();
        setSendQuantum();
        setCwnd(rs);
    }

    private void updateLatestDeliverySignals(RateSample rs) {
        lossRoundStart = false;
        bwLatest = Math.max(bwLatest, rs.deliveryRate());
        inflightLatest = Math.max(inflightLatest, rs.delivered());
        if (rs.priorDelivered() >= lossRoundDelivered) {
            lossRoundDelivered = delivered;
            lossRoundStart = true;
        }
    }

    private void advanceLatestDeliverySignals(RateSample rs) {
        if (lossRoundStart) {
            bwLatest = rs.deliveryRate();
            inflightLatest = rs.delivered();
        }
    }

    private void resetCongestionSignals() {
        isLossInRound = false;
        bwLatest = 0;
        inflightLatest = 0;
    }

    private void updateCongestionSignals(RateSample rs) {
        updateMaxBw(rs);
        if (!lossRoundStart) {
            return;
        }
        adaptLowerBoundsFromCongestion();
        isLossInRound = false;
    }

    private void adaptLowerBoundsFromCongestion() {
        if (isProbingBw()) {
            return;
        }
        if (isLossInRound) {
            initLowerBounds();
            lossLowerBounds();
        }
    }

    private void initLowerBounds() {
        if (bwShortterm == INFINITY) {
            bwShortterm = maxBw;
        }
        if (inflightShortterm == INFINITY) {
            inflightShortterm = cwnd;
        }
    }

    private void lossLowerBounds() {
        bwShortterm = Math.max(bwLatest, (long) (BETA * bwShortterm));
        inflightShortterm = Math.max(inflightLatest, (long) (BETA * inflightShortterm));
    }

    private void resetShortTermModel() {
        bwShortterm = INFINITY;
        inflightShortterm = INFINITY;
    }

    private void boundBwForModel() {
        bw = Math.min(maxBw, bwShortterm);
    }

    private void updateMaxBw(RateSample rs) {
        updateRound(rs);
        if (rs.deliveryRate() > 0 && (rs.deliveryRate() >= maxBw || !rs.isAppLimited())) {
            maxBw = maxBwFilter.update(rs.deliveryRate(), cycleCount, MAX_BW_FILTER_LEN);
        }
    }

    private void advanceMaxBwFilter() {
        cycleCount++;
        maxBw = maxBwFilter.get(cycleCount, MAX_BW_FILTER_LEN);
    }

    private void updateRound(RateSample rs) {
        if (rs.priorDelivered() >= nextRoundDelivered) {
            startRound();
            roundCount++;
            roundsSinceProbeUp++;
            roundStart = true;
            cwndLimitedLastRound = cwndLimitedThisRound;
            cwndLimitedThisRound = false;
        } else {
            roundStart = false;
        }
    }

    private void startRound() {
        nextRoundDelivered = delivered;
    }

    /** C.is_cwnd_limited: cwnd was fully used at some point in the last packet-timed round trip. */
    private boolean isCwndLimited() {
        return cwndLimitedLastRound || cwndLimitedThisRound;
    }

    private void updateAckAggregation(RateSample rs, long now) {
        long interval = now - extraAckedIntervalStart;
        long expected = (long) ((double) bw * interval / 1e9);
        if (extraAckedDelivered <= expected) {
            extraAckedDelivered = 0;
            extraAckedIntervalStart = now;
            expected = 0;
        }
        extraAckedDelivered += rs.newlyAcked();
        long extra = Math.min(extraAckedDelivered - expected, cwnd);
        int len = fullBwReached ? EXTRA_ACKED_FILTER_LEN : 1;
        extraAcked = extraAckedFilter.update(extra, roundCount, len);
    }

    // ---------------------------------------------------------------- Startup and Drain

    private void enterStartup() {
        state = BbrState.STARTUP;
        pacingGain = STARTUP_PACING_GAIN;
        cwndGain = DEFAULT_CWND_GAIN;
    }

    private void resetFullBw() {
        fullBw = 0;
        fullBwCount = 0;
        fullBwNow = false;
    }

    private void checkFullBwReached(RateSample rs) {
        if (fullBwNow || !roundStart || rs.isAppLimited() || rs.deliveryRate() == 0) {
            return;
        }
        if (rs.deliveryRate() >= fullBw * 1.25) {
            resetFullBw();
            fullBw = rs.deliveryRate();
            return;
        }
        fullBwCount++;
        fullBwNow = fullBwCount >= 3;
        if (fullBwNow) {
            if (state == BbrState.STARTUP && startupExit == null) {
                startupExit = "bandwidth_plateau";
            }
            fullBwReached = true;
        }
    }

    private void checkStartupDone(RateSample rs) {
        checkStartupHighLoss(rs);
        if (state == BbrState.STARTUP && fullBwReached) {
            enterDrain();
        }
    }

    /**
     * {@code --slow-start onset} (pacelab's departure from the draft, which has no delay signal; docs/benchmarks.md,
     * "BBRv3 with the onset: a bound, an early probe and a return to Startup").
     * <ul>
     *   <li>Startup: the queue's onset means the pipe is full (Drain follows), and bounds the long-term model as the
     *       draft's loss exit does (§"Exiting Startup Based on Packet Loss": max(bdp, inflight_latest)) and Linux
     *       BBRv3's ECN exit, taking also C.inflight (the packets the onset's run of samples let out). The first
     *       ProbeBW cycle after it probes at once, without §"Time Scale for Bandwidth Probing"'s wait, once the
     *       recovery period of any loss Startup left is over. The onset counts only on a rate sample that is not
     *       app-limited (as the draft's plateau check) and beyond one datagram's serialization at bw above the
     *       threshold (the queue the pacer's 2-packet quanta leave).</li>
     *   <li>ProbeBW_UP, re-armed for each probe: before the probe's own packets are acknowledged (ack phase
     *       PROBE_STARTING) an onset counts only when its delay exceeds the threshold by one send quantum at bw (the
     *       queue a quantum's burst leaves at a bottleneck as fast as the pacing); a counted onset ends the probe
     *       (ProbeBW_DOWN, as on a bandwidth plateau; inflight_longterm raised by {@link #ONSET_BOUND_GROWTH} while it
     *       is the onset's bound, left as it is once a loss set it). Once the probe's own delivery rate samples
     *       reach {@link #ONSET_PROBE_GROWTH} × max_bw at its start, with or without an onset, the probe found
     *       bandwidth that the onset in Startup missed, and BBR returns to Startup at once (as the draft's
     *       spurious-loss undo does), its long-term and short-term bounds reset.</li>
     *   <li>ProbeRTT: an RTT sample within the onset's threshold of min_rtt renews probe_rtt_min_stamp
     *       ({@link #onsetConfirmsMinRtt}).</li>
     * </ul>
     */
    private void checkQueueOnset(AckEvent ack) {
        if (queueOnset == null) {
            return;
        }
        if (state == BbrState.STARTUP && !fullBwReached) {
            boolean onset = queueOnset.onAck(ack, cwnd, mds);
            RateSample rs = ack.rateSample();
            if (rs != null && rs.isAppLimited()) {
                // as the draft's plateau check skips app-limited samples (BBRCheckFullBWReached): a queue that
                // an app-limited (e.g. flow-control-limited) sender builds comes from its bursts at Startup's pacing
                // rate, not from a full pipe; its run of samples starts again
                queueOnset.rearm();
                return;
            }
            if (onset && bw > 0 && queueOnset.exitDelay() < queueOnset.threshold() + mds * 1_000_000_000L / bw) {
                // one datagram's serialization at bw: the queue the pacer's 2-packet quanta leave at a bottleneck as
                // fast as bw (1.16 ms at 10 Mbit/s, near the onset's threshold at 40 ms)
                queueOnset.rearm();
                return;
            }
            if (onset) {
                if (startupExit == null) {
                    startupExit = "queue_onset";
                }
                fullBwReached = true;
                fullBwNow = true;
                inflightLongterm = Math.max(Math.max(bdp(), inflightLatest), inflight);
                inflightLongtermFromOnset = true;
                probeAfterOnsetExit = true;
            }
        } else if (state == BbrState.PROBE_BW_UP) {
            if (!onsetArmedForUp) {
                queueOnset.rearm();
                onsetArmedForUp = true;
            }
            boolean onsetNow = queueOnset.onAck(ack, cwnd, mds);
            // the probe found bandwidth (its own samples reached 9/8 of max_bw): back to Startup at once, without
            // waiting for an onset, which at 1.25 x the old rate may come late or never on a link that grew
            if (!onsetNow && !(upMaxDeliveryRate >= ONSET_PROBE_GROWTH * upStartMaxBw && upStartMaxBw > 0)) {
                return;
            }
            if (onsetNow && ackPhase != AckPhase.PROBE_FEEDBACK && bw > 0
                    && queueOnset.exitDelay() < queueOnset.threshold() + sendQuantum * 1_000_000_000L / bw) {
                queueOnset.rearm();
                return;
            }
            if (upMaxDeliveryRate >= ONSET_PROBE_GROWTH * upStartMaxBw) {
                queueOnsetRestarts++;
                queueOnset.rearm();
                fullBwReached = false;
                resetFullBw();
                resetShortTermModel();
                inflightLongterm = INFINITY;
                inflightLongtermFromOnset = false;
                enterStartup();
                return;
            }
            queueOnsetProbeEnds++;
            if (inflightLongtermFromOnset) {
                inflightLongterm = (long) (inflightLongterm * ONSET_BOUND_GROWTH);
            }
            prevProbeTooHigh = false;
            startProbeBwDown(ack.now());
        } else {
            onsetArmedForUp = false;
        }
    }

    /** ProbeBW_UP phases the queue's onset ended. */
    private int queueOnsetProbeEnds;
    /** Onsets in ProbeBW_UP after the probe's delivery rate had grown: returns to Startup. */
    private int queueOnsetRestarts;

    public int queueOnsetProbeEnds() { return queueOnsetProbeEnds; }

    public int queueOnsetRestarts() { return queueOnsetRestarts; }

    private void checkStartupHighLoss(RateSample rs) {
        if (state != BbrState.STARTUP || fullBwReached) {
            return;
        }
        if (lossRoundStart) {
            if (lossRangesInRound >= STARTUP_FULL_LOSS_COUNT && isInflightTooHigh(rs.lost(), rs.txInFlight())) {
                undoState = BbrState.STARTUP;
                if (startupExit == null) {
                    startupExit = "loss";
                }
                fullBwReached = true;
                fullBwNow = true;
                inflightLongterm = Math.max(bdp(), inflightLatest);
                inflightLongtermFromOnset = false;
            }
            lossRangesInRound = 0;
        }
    }

    private void enterDrain() {
        state = BbrState.DRAIN;
        pacingGain = DRAIN_PACING_GAIN;
        cwndGain = DEFAULT_CWND_GAIN;
        drainStartRound = roundCount;
    }

    private void checkDrainDone(long now) {
        if (state == BbrState.DRAIN && (inflight <= inflight(bw, 1.0) || roundCount > drainStartRound + 3)) {
            enterProbeBw(now);
        }
    }

    // ---------------------------------------------------------------- ProbeBW

    private void enterProbeBw(long now) {
        cwndGain = DEFAULT_CWND_GAIN;
        startProbeBwDown(now);
    }

    private void startProbeBwDown(long now) {
        resetCongestionSignals();
        probeUpAckedPerInc = INFINITY;
        pickProbeWait();
        cycleStamp = now;
        ackPhase = AckPhase.PROBE_STOPPING;
        startRound();
        state = BbrState.PROBE_BW_DOWN;
        pacingGain = PROBE_BW_DOWN_PACING_GAIN;
        cwndGain = DEFAULT_CWND_GAIN;
    }

    private void startProbeBwCruise() {
        state = BbrState.PROBE_BW_CRUISE;
        pacingGain = PROBE_BW_CRUISE_PACING_GAIN;
        cwndGain = DEFAULT_CWND_GAIN;
    }

    private void startProbeBwRefill() {
        resetShortTermModel();
        bwProbeUpRounds = 0;
        bwProbeUpAcked = 0;
        prevProbePrecautionary = false;
        ackPhase = AckPhase.REFILLING;
        startRound();
        state = BbrState.PROBE_BW_REFILL;
        pacingGain = PROBE_BW_REFILL_PACING_GAIN;
        cwndGain = DEFAULT_CWND_GAIN;
    }

    private void startProbeBwUp(RateSample rs) {
        ackPhase = AckPhase.PROBE_STARTING;
        startRound();
        resetFullBw();
        fullBw = rs.deliveryRate();
        state = BbrState.PROBE_BW_UP;
        upStartMaxBw = maxBw;
        upMaxDeliveryRate = 0;
        pacingGain = PROBE_BW_UP_PACING_GAIN;
        cwndGain = PROBE_BW_UP_CWND_GAIN;
        raiseInflightLongtermSlope();
    }

    private void updateProbeBwCyclePhase(RateSample rs, long now) {
        if (!fullBwReached) {
            return;
        }
        if (adaptLongTermModel(rs)) {
            return;
        }
        switch (state) {
            case PROBE_BW_DOWN -> {
                if (isTimeToProbeBw(now)) {
                    return;
                }
                if (isTimeToCruise()) {
                    startProbeBwCruise();
                }
            }
            case PROBE_BW_CRUISE -> isTimeToProbeBw(now);
            case PROBE_BW_REFILL -> {
                if (roundStart) {
                    isBwProbeSample = true;
                    startProbeBwUp(rs);
                }
            }
            case PROBE_BW_UP -> {
                if (isTimeToGoDown(rs)) {
                    prevProbeTooHigh = false;
                    startProbeBwDown(now);
                }
            }
            default -> { }
        }
    }

    private boolean isTimeToCruise() {
        if (inflight > inflightWithHeadroom()) {
            return false;
        }
        return inflight <= inflight(maxBw, 1.0);
    }

    private boolean isTimeToGoDown(RateSample rs) {
        if (prevProbeTooHigh && inflight >= inflightLongterm) {
            prevProbePrecautionary = true;
            return true;
        }
        if (isCwndLimited() && cwnd >= inflightLongterm) {
            resetFullBw();
            fullBw = rs.deliveryRate();
        } else if (fullBwNow) {
            return true;
        }
        return false;
    }

    private boolean isProbingBw() {
        return state == BbrState.STARTUP || state == BbrState.PROBE_BW_REFILL || state == BbrState.PROBE_BW_UP;
    }

    private boolean hasElapsedInPhase(long now, long interval) {
        return now > cycleStamp + interval;
    }

    private boolean isTimeToProbeBw(long now) {
        if (probeAfterOnsetExit && recovery.inRecovery()) {
            // the early probe waits for the end of the recovery period Startup's losses began: a loss declared in the
            // probe counts every loss since the lost packet was sent (C.lost - P.lost), Startup's too, and would set
            // inflight_longterm below the BDP plus the buffer
            return false;
        }
        if (probeAfterOnsetExit || hasElapsedInPhase(now, bwProbeWait) || isRenoCoexistenceProbeTime()) {
            probeAfterOnsetExit = false;
            startProbeBwRefill();
            return true;
        }
        return false;
    }

    private void pickProbeWait() {
        roundsSinceProbeUp = random.nextInt(2);
        bwProbeWait = 2_000_000_000L + (long) (random.nextDouble() * 1_000_000_000L);
    }

    private boolean isRenoCoexistenceProbeTime() {
        long renoRounds = targetInflight() / mds;
        long rounds = Math.min(renoRounds, 63);
        return roundsSinceProbeUp >= rounds;
    }

    private long targetInflight() {
        return Math.min(bdp(), cwnd);
    }

    private long inflightWithHeadroom() {
        if (inflightLongterm == INFINITY) {
            return INFINITY;
        }
        long headroom = Math.max(mds, (long) (HEADROOM * inflightLongterm));
        return Math.max(inflightLongterm - headroom, minPipeCwnd());
    }

    private void raiseInflightLongtermSlope() {
        long growthThisRound = 1L << bwProbeUpRounds;
        bwProbeUpRounds = Math.min(bwProbeUpRounds + 1, 30);
        probeUpAckedPerInc = Math.max(cwnd / growthThisRound, mds);
    }

    private void probeInflightLongtermUpward(RateSample rs) {
        if (!isCwndLimited() || cwnd < inflightLongterm) {
            return;
        }
        bwProbeUpAcked += rs.newlyAcked();
        if (bwProbeUpAcked >= probeUpAckedPerInc) {
            long delta = bwProbeUpAcked / probeUpAckedPerInc;
            bwProbeUpAcked -= delta * probeUpAckedPerInc;
            inflightLongterm += delta * mds;
        }
        if (roundStart) {
            raiseInflightLongtermSlope();
        }
    }

    private boolean adaptLongTermModel(RateSample rs) {
        if (ackPhase == AckPhase.PROBE_STARTING && roundStart) {
            ackPhase = AckPhase.PROBE_FEEDBACK;
        }
        if (ackPhase == AckPhase.PROBE_STOPPING && roundStart) {
            isBwProbeSample = false;
            ackPhase = AckPhase.INIT;
            if (state.isProbeBw() && !rs.isAppLimited()) {
                advanceMaxBwFilter();
            }
            if (state.isProbeBw() && prevProbePrecautionary && !prevProbeTooHigh) {
                startProbeBwRefill();
                return true;
            }
        }
        if (!isInflightTooHigh(rs.lost(), rs.txInFlight())) {
            if (inflightLongterm == INFINITY) {
                return false;
            }
            if (rs.txInFlight() > inflightLongterm) {
                inflightLongterm = rs.txInFlight();
            }
            if (state == BbrState.PROBE_BW_UP) {
                probeInflightLongtermUpward(rs);
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- loss

    private static boolean isInflightTooHigh(long lost, long txInFlight) {
        return lost > txInFlight * LOSS_THRESH;
    }

    private void noteLoss() {
        if (!isLossInRound) {
            lossRoundDelivered = delivered;
            saveStateUponLoss();
        }
        isLossInRound = true;
    }

    /** HandleLostPacket(P) with C.lost as it was right after P was marked lost. */
    private void handleLostPacket(PacketInfo p, long cLost, long now) {
        noteLoss();
        if (!isBwProbeSample) {
            return;
        }
        long txInFlight = p.txInFlight();
        long lost = cLost - p.lostBefore();
        if (isInflightTooHigh(lost, txInFlight)) {
            handleInflightTooHigh(p.appLimited(), inflightAtLoss(p.size(), txInFlight, lost), now);
        }
    }

    private static long inflightAtLoss(long size, long txInFlight, long lost) {
        long inflightPrev = txInFlight - size;
        long lostPrev = lost - size;
        double lostPrefix = (LOSS_THRESH * inflightPrev - lostPrev) / (1 - LOSS_THRESH);
        return inflightPrev + (long) lostPrefix;
    }

    private void handleInflightTooHigh(boolean appLimited, long txInFlight, long now) {
        prevProbeTooHigh = true;
        isBwProbeSample = false;
        if (!appLimited) {
            inflightLongterm = Math.max(txInFlight, (long) (targetInflight() * BETA));
            inflightLongtermFromOnset = false;
        }
        if (state == BbrState.PROBE_BW_UP) {
            undoState = BbrState.PROBE_BW_UP;
            startProbeBwDown(now);
        }
    }

    private void saveStateUponLoss() {
        saveCwnd();
        undoState = null;
        undoBwShortterm = bwShortterm;
        undoInflightShortterm = inflightShortterm;
        undoInflightLongterm = inflightLongterm;
    }

    private void handleSpuriousLossDetection() {
        restoreCwnd();
        isLossInRound = false;
        resetFullBw();
        bwShortterm = Math.max(bwShortterm, undoBwShortterm);
        inflightShortterm = Math.max(inflightShortterm, undoInflightShortterm);
        inflightLongterm = Math.max(inflightLongterm, undoInflightLongterm);
        if (undoState == BbrState.STARTUP && state != BbrState.STARTUP) {
            fullBwReached = false;
            if (state != BbrState.PROBE_RTT) {
                enterStartup();
            }
        } else if (undoState == BbrState.PROBE_BW_UP && state != BbrState.PROBE_BW_UP) {
            if (state != BbrState.PROBE_RTT) {
                startProbeBwRefill();
            }
        }
        undoState = null;
    }

    private void saveCwnd() {
        if (!recovery.inRecovery() && state != BbrState.PROBE_RTT) {
            priorCwnd = cwnd;
        } else {
            priorCwnd = Math.max(priorCwnd, cwnd);
        }
    }

    private void restoreCwnd() {
        cwnd = Math.max(cwnd, priorCwnd);
    }

    // ---------------------------------------------------------------- min_rtt and ProbeRTT

    private void updateMinRtt(RateSample rs, long now) {
        if (onsetConfirmsMinRtt(rs)) {
            probeRttMinStamp = now;
        }
        probeRttExpired = now > probeRttMinStamp + PROBE_RTT_INTERVAL;
        if (rs.rtt() >= 0 && (rs.rtt() < probeRttMinDelay || probeRttExpired)) {
            probeRttMinDelay = rs.rtt();
            probeRttMinStamp = now;
        }
        boolean minRttExpired = now > minRttStamp + MIN_RTT_FILTER_LEN;
        if (probeRttMinDelay < minRtt || minRttExpired) {
            minRtt = probeRttMinDelay;
            minRttStamp = probeRttMinStamp;
        }
    }

    /**
     * {@code --slow-start onset}: an RTT sample at most the onset's threshold ({@link QueueOnset#threshold()}) above
     * probe_rtt_min_delay renews probe_rtt_min_stamp (the value is kept). The draft renews the stamp only on a sample
     * below the minimum, so a flow that keeps no queue still enters ProbeRTT every 5 s (§"ProbeRTT") and halves its
     * window for at least 200 ms + one round, though a drained queue is what ProbeRTT is for; the onset exit keeps
     * the queue small enough for such samples, and its early minimum makes that ProbeRTT come within the first 5-7 s.
     * QUICHE's BBRv1 sender has a like rule (probe_rtt_skipped_if_similar_rtt_: min_rtt's expiry is extended when
     * the least RTT since the last ProbeRTT is within 12.5 % of it, there only for a flow app-limited since). A path
     * whose minimum RTT rose, or a flow that keeps a standing queue, sees no such sample and probes as the draft.
     */
    private boolean onsetConfirmsMinRtt(RateSample rs) {
        return queueOnset != null && rs.rtt() >= 0 && probeRttMinDelay != INFINITY
                && rs.rtt() <= probeRttMinDelay + queueOnset.threshold();
    }

    private void checkProbeRtt(RateSample rs, long now) {
        if (state != BbrState.PROBE_RTT && probeRttExpired && !idleRestart) {
            enterProbeRtt();
            saveCwnd();
            probeRttDoneStampSet = false;
            ackPhase = AckPhase.PROBE_STOPPING;
            startRound();
        }
        if (state == BbrState.PROBE_RTT) {
            handleProbeRtt(now);
        }
        if (rs.delivered() > 0) {
            idleRestart = false;
        }
    }

    private void enterProbeRtt() {
        state = BbrState.PROBE_RTT;
        pacingGain = 1.0;
        cwndGain = PROBE_RTT_CWND_GAIN;
    }

    private void handleProbeRtt(long now) {
        // ignore low rate samples during ProbeRTT
        markConnectionAppLimited.accept(inflight);
        if (!probeRttDoneStampSet && inflight <= probeRttCwnd()) {
            probeRttDoneStamp = now + PROBE_RTT_DURATION;
            probeRttDoneStampSet = true;
            probeRttRoundDone = false;
            startRound();
        } else if (probeRttDoneStampSet) {
            if (roundStart) {
                probeRttRoundDone = true;
            }
            if (probeRttRoundDone) {
                checkProbeRttDone(now);
            }
        }
    }

    private void checkProbeRttDone(long now) {
        if (probeRttDoneStampSet && now > probeRttDoneStamp) {
            probeRttMinStamp = now;
            restoreCwnd();
            exitProbeRtt(now);
        }
    }

    private void exitProbeRtt(long now) {
        resetShortTermModel();
        if (fullBwReached) {
            startProbeBwDown(now);
            startProbeBwCruise();
        } else {
            enterStartup();
        }
    }

    private long probeRttCwnd() {
        return Math.max(bdpMultiple(bw, PROBE_RTT_CWND_GAIN), minPipeCwnd());
    }

    // ---------------------------------------------------------------- control parameters

    private void setPacingRateWithGain(double gain) {
        long rate = (long) (gain * bw * (1 - PACING_MARGIN));
        if (fullBwReached || rate > pacingRate) {
            pacingRate = rate;
        }
    }

    private void setPacingRate() {
        setPacingRateWithGain(pacingGain);
    }

    private void setSendQuantum() {
        long q = pacingRate / 1000;
        q = Math.min(q, SEND_QUANTUM_MAX);
        sendQuantum = Math.max(q, 2L * mds);
    }

    private long minPipeCwnd() {
        return 4L * mds;
    }

    /** BBR.bdp = BBR.bw * BBR.min_rtt (the initial window before any RTT sample). */
    private long bdp() {
        return bdpMultiple(bw, 1.0);
    }

    private long bdpMultiple(long bandwidth, double gain) {
        if (minRtt == INFINITY) {
            return initialCwnd;
        }
        return (long) (gain * ((double) bandwidth * minRtt / 1e9));
    }

    private long quantizationBudget(long inflightCap) {
        long offloadBudget = sendQuantum;
        long cap = Math.max(inflightCap, offloadBudget);
        cap = Math.max(cap, minPipeCwnd());
        if (state == BbrState.PROBE_BW_UP) {
            cap += 2L * mds;
        }
        return cap;
    }

    private long inflight(long bandwidth, double gain) {
        return quantizationBudget(bdpMultiple(bandwidth, gain));
    }

    private void updateMaxInflight() {
        long cap = bdpMultiple(bw, cwndGain) + extraAcked;
        maxInflight = quantizationBudget(cap);
    }

    private void setCwnd(RateSample rs) {
        updateMaxInflight();
        if (fullBwReached) {
            cwnd = Math.min(cwnd + rs.newlyAcked(), maxInflight);
        } else if (cwnd < maxInflight || delivered < initialCwnd) {
            cwnd = cwnd + rs.newlyAcked();
        }
        cwnd = Math.max(cwnd, minPipeCwnd());
        boundCwndForProbeRtt();
        boundCwndForModel();
    }

    private void boundCwndForProbeRtt() {
        if (state == BbrState.PROBE_RTT) {
            cwnd = Math.min(cwnd, probeRttCwnd());
        }
    }

    private void boundCwndForModel() {
        long cap = INFINITY;
        if (state.isProbeBw() && state != BbrState.PROBE_BW_CRUISE) {
            cap = inflightLongterm;
        } else if (state == BbrState.PROBE_RTT || state == BbrState.PROBE_BW_CRUISE) {
            cap = inflightWithHeadroom();
        }
        cap = Math.min(cap, inflightShortterm);
        cap = Math.max(cap, minPipeCwnd());
        cwnd = Math.min(cwnd, cap);
    }

    @Override
    public Map<String, Object> qlogState() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bbr_state", state.qlogName());
        m.put("max_bw", maxBw);
        m.put("bw", bw);
        m.put("min_rtt_ms", minRtt == INFINITY ? -1.0 : minRtt / 1e6);
        m.put("pacing_gain", pacingGain);
        m.put("cwnd_gain", cwndGain);
        m.put("round_count", roundCount);
        m.put("full_bw_reached", fullBwReached);
        if (queueOnset != null) {
            m.put("slow_start_rule", SlowStartRule.QUEUE_ONSET.optionValue());
            m.put("onset_probe_ends", queueOnsetProbeEnds);
            m.put("onset_restarts", queueOnsetRestarts);
        }
        if (startupExit != null) {
            m.put("startup_exit", startupExit);
        }
        m.put("extra_acked", extraAcked);
        m.put("inflight_longterm", inflightLongterm == INFINITY ? -1 : inflightLongterm);
        m.put("inflight_shortterm", inflightShortterm == INFINITY ? -1 : inflightShortterm);
        m.put("bw_shortterm", bwShortterm == INFINITY ? -1 : bwShortterm);
        return m;
    }
}
