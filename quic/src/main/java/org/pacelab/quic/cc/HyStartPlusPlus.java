package org.pacelab.quic.cc;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HyStart++ (RFC 9406), the slow-start modification shared by {@link NewRenoController} and
 * {@link CubicController}. The controller keeps the window; this class decides how much each ACK grows it
 * in slow start and when slow start ends without loss.
 *
 * <p>Rounds are counted by packet number (§4.2): a round ends when the packet that was the next to be sent
 * when the round started ({@code windowEnd}) is acknowledged. Packets of another packet number space are
 * compared by send time instead (a packet sent at or after {@code windowEnd} ends the round), so the
 * handshake's spaces do not stall round counting.
 *
 * <p>Per ACK (§4.2): in standard slow start the window grows by min(N, L*SMSS), in Conservative Slow Start
 * (CSS) by min(N, L*SMSS)/CSS_GROWTH_DIVISOR, where N is the bytes newly acknowledged by the ACK. The RTT
 * sample of each ACK updates the round's minimum; with at least N_RTT_SAMPLE samples in the round, a round
 * minimum at least RttThresh = clamp(lastRoundMinRTT/MIN_RTT_DIVISOR, MIN_RTT_THRESH, MAX_RTT_THRESH)
 * above the previous round's moves to CSS; in CSS a round minimum below the CSS baseline returns to slow
 * start; after CSS_ROUNDS rounds of CSS (the partial round of entry counts) slow start ends and the
 * controller sets ssthresh = cwnd. HyStart++ is used in the initial slow start only (§4.3): a congestion
 * event ({@link #stop()}) ends it; the controller's own loss response then applies.
 */
public final class HyStartPlusPlus implements SlowStartExit {
    /** §4.3 constants. */
    public static final long MIN_RTT_THRESH = 4_000_000L;
    public static final long MAX_RTT_THRESH = 16_000_000L;
    public static final int MIN_RTT_DIVISOR = 8;
    public static final int N_RTT_SAMPLE = 8;
    public static final int CSS_GROWTH_DIVISOR = 4;
    public static final int CSS_ROUNDS = 5;
    /** §4.3: L for a non-paced sender. */
    public static final long NON_PACED_L = 8;
    /** §4.3: L = infinity for a paced sender. */
    public static final long INFINITE_L = Long.MAX_VALUE;

    private static final long INFINITY = Long.MAX_VALUE;

    /** What an ACK changed. */
    public enum Outcome { NONE, ENTERED_CSS, RESUMED_SLOW_START, EXIT_TO_CONGESTION_AVOIDANCE }

    /** Where HyStart++ is. */
    public enum Phase { SLOW_START, CONSERVATIVE_SLOW_START, DONE }

    private final long limitSegments;
    private final int cssRoundsLimit;
    private Phase phase = Phase.SLOW_START;

    private long lastRoundMinRtt = INFINITY;
    private long currentRoundMinRtt = INFINITY;
    private long cssBaselineMinRtt = INFINITY;
    private int rttSampleCount;
    private int cssRounds;
    private int roundCount;

    private boolean windowEndSet;
    private PacketInfo windowEnd;

    private long ackBudget;
    private long cssCarry;

    /**
     * @param limitSegments L in segments ({@link #NON_PACED_L} without pacing, {@link #INFINITE_L} with)
     */
    public HyStartPlusPlus(long limitSegments) {
        this(limitSegments, CSS_ROUNDS);
    }

    /**
     * @param limitSegments L in segments
     * @param cssRounds     rounds of CSS before slow start ends (§4.3 recommends {@link #CSS_ROUNDS}; the constants
     *                      "have been determined with lab measurements and real-world deployments", a lab may vary them)
     */
    public HyStartPlusPlus(long limitSegments, int cssRounds) {
        if (limitSegments < 1) {
            throw new IllegalArgumentException("HyStart++ L must be at least 1 segment, got " + limitSegments);
        }
        if (cssRounds < 1) {
            throw new IllegalArgumentException("HyStart++ needs at least 1 CSS round, got " + cssRounds);
        }
        this.limitSegments = limitSegments;
        this.cssRoundsLimit = cssRounds;
    }

    /** Rounds of CSS after which slow start ends. */
    public int cssRoundsLimit() { return cssRoundsLimit; }

    public Phase phase() { return phase; }

    @Override
    public boolean active() { return phase != Phase.DONE; }

    public boolean inCss() { return phase == Phase.CONSERVATIVE_SLOW_START; }

    @Override
    public boolean conservative() { return inCss(); }

    public long limitSegments() { return limitSegments; }

    /** Rounds completed so far (for qlog and tests). */
    public int roundCount() { return roundCount; }

    /** CSS rounds completed (partial round of entry included). */
    public int cssRounds() { return cssRounds; }

    public long lastRoundMinRtt() { return lastRoundMinRtt; }

    public long currentRoundMinRtt() { return currentRoundMinRtt; }

    /** A packet was sent in slow start: it becomes windowEnd when no round is running. */
    @Override
    public void onPacketSent(PacketInfo packet) {
        if (phase == Phase.DONE || windowEndSet) {
            return;
        }
        windowEnd = packet;
        windowEndSet = true;
    }

    /** Starts processing one ACK: resets the per-ACK growth budget L*SMSS. */
    @Override
    public void beginAck(int maxDatagramSize) {
        ackBudget = limitSegments == INFINITE_L ? Long.MAX_VALUE : limitSegments * maxDatagramSize;
    }

    /**
     * The window growth for {@code ackedBytes} newly acknowledged bytes of the current ACK, in slow start or
     * CSS (§4.2: {@code cwnd += min(N, L*SMSS)}, divided by CSS_GROWTH_DIVISOR in CSS).
     */
    @Override
    public long increase(long ackedBytes) {
        long n = Math.min(ackedBytes, ackBudget);
        ackBudget -= n;
        if (phase != Phase.CONSERVATIVE_SLOW_START) {
            return n;
        }
        long total = cssCarry + n;
        cssCarry = total % CSS_GROWTH_DIVISOR;
        return total / CSS_GROWTH_DIVISOR;
    }

    /**
     * The ACK's RTT sample is the estimator's latest RTT (§4.2 currRTT); slow start ends after the last CSS round.
     * ACKs that arrive while the sender is application-limited are not taken (they grow nothing either).
     */
    @Override
    public boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        return !ack.appLimited() && onAck(ack.rtt().latestRtt(), ack.acked()) == Outcome.EXIT_TO_CONGESTION_AVOIDANCE;
    }

    /**
     * Finishes an ACK processed in slow start or CSS: takes its RTT sample, checks the exits and the end of
     * the round.
     *
     * @param rttSample the ACK's RTT sample (currRTT), ns
     * @param acked     the newly acknowledged packets, ascending
     */
    public Outcome onAck(long rttSample, List<PacketInfo> acked) {
        if (phase == Phase.DONE) {
            return Outcome.NONE;
        }
        Outcome outcome = Outcome.NONE;
        currentRoundMinRtt = Math.min(currentRoundMinRtt, rttSample);
        rttSampleCount++;
        if (phase == Phase.SLOW_START) {
            if (rttSampleCount >= N_RTT_SAMPLE && currentRoundMinRtt != INFINITY && lastRoundMinRtt != INFINITY) {
                long rttThresh = Math.max(MIN_RTT_THRESH, Math.min(lastRoundMinRtt / MIN_RTT_DIVISOR, MAX_RTT_THRESH));
                if (currentRoundMinRtt >= lastRoundMinRtt + rttThresh) {
                    cssBaselineMinRtt = currentRoundMinRtt;
                    phase = Phase.CONSERVATIVE_SLOW_START;
                    cssRounds = 0;
                    cssCarry = 0;
                    outcome = Outcome.ENTERED_CSS;
                }
            }
        } else if (rttSampleCount >= N_RTT_SAMPLE && currentRoundMinRtt < cssBaselineMinRtt) {
            cssBaselineMinRtt = INFINITY;
            phase = Phase.SLOW_START;
            cssRounds = 0;
            outcome = Outcome.RESUMED_SLOW_START;
        }
        if (windowEndSet && endsRound(acked)) {
            roundCount++;
            windowEndSet = false;
            lastRoundMinRtt = currentRoundMinRtt;
            currentRoundMinRtt = INFINITY;
            rttSampleCount = 0;
            if (phase == Phase.CONSERVATIVE_SLOW_START) {
                cssRounds++;
                if (cssRounds >= cssRoundsLimit) {
                    phase = Phase.DONE;
                    return Outcome.EXIT_TO_CONGESTION_AVOIDANCE;
                }
            }
        }
        return outcome;
    }

    private boolean endsRound(List<PacketInfo> acked) {
        for (PacketInfo p : acked) {
            if (p.space() == windowEnd.space()) {
                if (p.packetNumber() >= windowEnd.packetNumber()) {
                    return true;
                }
            } else if (p.timeSent() >= windowEnd.timeSent()) {
                return true;
            }
        }
        return false;
    }

    /** A congestion event (or any end of the initial slow start): HyStart++ is over for this connection. */
    @Override
    public void stop() {
        phase = Phase.DONE;
        windowEndSet = false;
    }

    @Override
    public void putQlogState(Map<String, Object> m) {
        m.put("slow_start_rule", SlowStartRule.HYSTART_PLUS_PLUS.optionValue());
        m.put("hystart_phase", phase.name().toLowerCase(Locale.ROOT));
        m.put("hystart_css_rounds", cssRounds);
    }
}
