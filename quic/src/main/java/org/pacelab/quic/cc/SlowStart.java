package org.pacelab.quic.cc;

import java.util.Map;

/**
 * The initial slow start shared by {@link NewRenoController} and {@link CubicController}: the window grows by the
 * bytes acknowledged (RFC 9002 §7.3.1, RFC 9438 §4.10) as the {@link SlowStartExit} rule allows, and the rule may
 * end slow start without loss. The controller keeps the window and ssthresh and says, per call, whether it is in
 * slow start.
 *
 * <p>Per ACK the controller calls {@link #beginAck}, then {@link #increase} for each newly acknowledged packet it
 * grows the window for in slow start, then {@link #endAck}; when that returns true the controller sets ssthresh to
 * its window (RFC 9406 §4.2; Linux HyStart and SEARCH do the same).
 */
public final class SlowStart {
    private final SlowStartExit rule;
    private boolean ackInProgress;
    private long coveredUntil = -1;
    private long loweredAt = -1;
    private boolean loweredDone;

    /** @param rule the exit rule of this connection (never null; {@link StandardSlowStart} for none) */
    public SlowStart(SlowStartExit rule) {
        if (rule == null) {
            throw new IllegalArgumentException("slow start needs a rule; use StandardSlowStart for none");
        }
        this.rule = rule;
    }

    /** The exit rule. */
    public SlowStartExit rule() { return rule; }

    private boolean running(boolean inSlowStart) {
        return rule.active() && inSlowStart;
    }

    /**
     * The rule's own pacing rate: {@link SlowStartExit#pacingRate} while it runs in slow start,
     * {@link SlowStartExit#pacingRateAfterEnd} in congestion avoidance once it has ended, else 0 (the pacer's).
     */
    public long pacingRate(boolean inSlowStart, long congestionWindow) {
        if (running(inSlowStart)) {
            return rule.pacingRate();
        }
        return !inSlowStart && !rule.active() ? rule.pacingRateAfterEnd(congestionWindow) : 0;
    }

    /** An ACK the rule did not take as its own: once it has ended, it still sees the RTT estimates. */
    private void afterEnd(AckEvent ack) {
        if (!rule.active()) {
            rule.onAckAfterEnd(ack);
        }
    }

    /** A packet was sent. */
    public void onPacketSent(PacketInfo packet, boolean inSlowStart) {
        if (running(inSlowStart)) {
            rule.onPacketSent(packet);
        }
    }

    /** An ACK that may grow the window starts (after the application-limited check). */
    public void beginAck(boolean inSlowStart, int maxDatagramSize) {
        ackInProgress = running(inSlowStart);
        if (ackInProgress) {
            rule.beginAck(maxDatagramSize);
        }
    }

    /** The slow-start growth, in bytes, for one acknowledged packet of {@code ackedBytes}. */
    public long increase(long ackedBytes, boolean inSlowStart) {
        return running(inSlowStart) ? rule.increase(ackedBytes) : ackedBytes;
    }

    /**
     * The window to leave slow start with: {@link SlowStartExit#exitWindow}, at most {@code congestionWindow}, or the
     * rule's {@link SlowStartExit#exitRaise} when that is larger; a raise above {@code congestionWindow} extends the
     * exit's cover to the packets sent until the first ACK of a packet sent after the exit ({@link #onAcked}).
     */
    public long exitWindow(long congestionWindow) {
        long w = Math.min(congestionWindow, rule.exitWindow(congestionWindow));
        long raise = rule.exitRaise();
        if (raise > w) {
            w = raise;
            if (raise > congestionWindow && rule.exitCoversInFlight() && coveredUntil >= 0 && loweredAt < 0) {
                loweredAt = coveredUntil;
            }
        }
        return w;
    }

    /** Whether the first congestion event after a loss-free end of slow start converges ({@link SlowStartExit#convergeAfterExit}). */
    public boolean convergeAfterExit() {
        return rule.convergeAfterExit();
    }

    /** The least window a congestion event may reduce to ({@link SlowStartExit#congestionFloor}), or -1. */
    public long congestionFloor(long congestionWindow) {
        return rule.congestionFloor(congestionWindow);
    }

    /**
     * Ends the ACK begun with {@link #beginAck}: true when the rule ends slow start now; the controller then takes
     * {@link #exitWindow} as its window and ssthresh.
     *
     * @param congestionWindow the window after this ACK's growth
     */
    public boolean endAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        boolean exit = ackInProgress && rule.onAck(ack, congestionWindow, maxDatagramSize);
        if (!exit) {
            afterEnd(ack);
        }
        ackInProgress = false;
        if (exit) {
            exited(ack.now());
        }
        return exit;
    }

    /**
     * An ACK that grows nothing because the sender is application-limited (RFC 9002 §7.8): the rule still sees it
     * (its RTT sample, the bytes it delivered) and may end slow start; true when it does.
     */
    public boolean onAppLimitedAck(AckEvent ack, boolean inSlowStart, long congestionWindow, int maxDatagramSize) {
        if (!running(inSlowStart)) {
            afterEnd(ack);
            return false;
        }
        if (!rule.onAck(ack, congestionWindow, maxDatagramSize)) {
            return false;
        }
        exited(ack.now());
        return true;
    }

    /**
     * After an ACK that did not end slow start ({@link #endAck} or {@link #onAppLimitedAck} false): the window the rule
     * lowers to while slow start goes on ({@link SlowStartExit#windowCut}), or -1; the packets in flight then are
     * covered as by an exit when the rule covers those.
     */
    public long takeWindowCut(long now, long congestionWindow) {
        long w = rule.windowCut();
        if (w < 0 || w >= congestionWindow) {
            return -1;
        }
        if (rule.exitCoversInFlight()) {
            coveredUntil = now;
        }
        return w;
    }

    /** The bytes in flight above which the rule's window cut is taken gradually, or -1 ({@link SlowStartExit#gradualCutAbove}). */
    public long gradualCutAbove() {
        return rule.gradualCutAbove();
    }

    /** The controller takes the rule's window cut gradually ({@link SlowStartExit#onGradualCut}). */
    public void onGradualCut() {
        rule.onGradualCut();
    }

    /**
     * A gradual cut ({@link #gradualCutAbove}) is under way at {@code now} (or ends now): the packets sent until now
     * are covered as those in flight at the cut were ({@link #takeWindowCut}). They were sent while the window still
     * fell to the rule's cut, into the queue the window before the cut built; the cut is their one reduction (one per
     * round, as RFC 9002 §7.3.2).
     */
    public void extendCutCover(long now) {
        if (rule.exitCoversInFlight() && coveredUntil >= 0) {
            coveredUntil = Math.max(coveredUntil, now);
        }
    }

    private void exited(long now) {
        if (rule.exitCoversInFlight()) {
            coveredUntil = now;
        }
        rule.stop();
    }

    /**
     * Whether a lost packet sent at {@code sentTime} was in flight when the rule ended slow start and the rule covers
     * such packets ({@link SlowStartExit#exitCoversInFlight}): its loss starts no congestion event.
     */
    public boolean exitCovers(long sentTime) {
        return coveredUntil >= 0 && (sentTime <= coveredUntil || loweredAt >= 0);
    }

    /**
     * A packet covered by the exit ({@link #exitCovers}) was lost at {@code now}: the window the rule gives then
     * ({@link SlowStartExit#windowAfterCoveredLoss}), at most {@code congestionWindow}. When the rule lowers the
     * window, the cover extends by one round: to the packets sent until the first ACK of a packet sent after now
     * ({@link #onAcked}). The packets sent until now left with the window the exit kept, which the loss showed to be
     * too large, and those sent in the next round meet the queue that window left standing; the lower window is their
     * one reduction (one per round, as RFC 9002 §7.3.2).
     */
    public long windowAfterCoveredLoss(long now, long congestionWindow) {
        long w = Math.min(congestionWindow, rule.windowAfterCoveredLoss(congestionWindow));
        if (w < congestionWindow && loweredAt < 0 && !loweredDone) {
            loweredAt = now;
        }
        return w;
    }

    /** A packet sent at {@code sentTime} was acknowledged at {@code now}: ends the extended cover of a lowered window. */
    public void onAcked(long sentTime, long now) {
        if (loweredAt >= 0 && sentTime > loweredAt) {
            coveredUntil = now;
            loweredAt = -1;
            loweredDone = true;
        }
    }

    /** A congestion event ends the rule: every rule applies to the initial slow start only (RFC 9406 §4.3). */
    public void stop() {
        rule.stop();
    }

    /**
     * The qlog congestion state of a loss-based controller (draft-ietf-quic-qlog-quic-events
     * {@code congestion_state_updated}), in order of precedence.
     */
    public String state(boolean inRecovery, boolean appLimited, boolean inSlowStart) {
        if (inRecovery) {
            return "recovery";
        }
        if (appLimited) {
            return "application_limited";
        }
        if (inSlowStart) {
            return rule.active() && rule.conservative() ? "conservative_slow_start" : "slow_start";
        }
        return "congestion_avoidance";
    }

    /** Adds the rule's state to a controller's qlog state. */
    public void putQlogState(Map<String, Object> m) {
        rule.putQlogState(m);
    }
}
