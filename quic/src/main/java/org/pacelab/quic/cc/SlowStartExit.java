package org.pacelab.quic.cc;

import java.util.Map;

/**
 * One connection's state of a {@link SlowStartRule}: decides, ACK by ACK, how much the window grows in the initial
 * slow start and when that slow start ends without a loss. {@link SlowStart} drives it for the controller; a
 * congestion event ({@link #stop()}) ends it for good, since every rule applies to the initial slow start only.
 *
 * <p>Per ACK that may grow the window: {@link #beginAck}, {@link #increase} for each newly acknowledged packet
 * the controller counts, then {@link #onAck}, whose answer is checked against the window after this ACK's growth.
 */
public interface SlowStartExit {
    /** A packet counting in flight was sent while the rule runs. */
    void onPacketSent(PacketInfo packet);

    /** An ACK that may grow the window starts. */
    default void beginAck(int maxDatagramSize) {}

    /** The window growth, in bytes, for one acknowledged packet of {@code ackedBytes} (standard: all of it). */
    default long increase(long ackedBytes) {
        return ackedBytes;
    }

    /**
     * Ends the ACK begun with {@link #beginAck}; also called, without {@link #beginAck}, for ACKs that arrive while
     * the sender is application-limited ({@link AckEvent#appLimited()}), which grow nothing.
     *
     * @param congestionWindow the window after this ACK's growth, bytes
     * @return true when slow start ends now: the controller takes {@link #exitWindow} as its window and ssthresh
     */
    boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize);

    /**
     * The window to continue with when {@link #onAck} has just ended slow start (the controller then sets ssthresh to
     * it): the current window by default; a rule may give a smaller one.
     */
    default long exitWindow(long congestionWindow) {
        return congestionWindow;
    }

    /**
     * A window to lower to without ending slow start, asked once after each ACK that did not end it; -1 for none (the
     * default). The packets in flight then are covered as by an exit ({@link #exitCoversInFlight}).
     */
    default long windowCut() {
        return -1;
    }

    /**
     * The bytes in flight above which a controller that can takes {@link #windowCut} gradually ({@link GradualCut}:
     * RFC 6937's proportional rate reduction, for at most the round after the cut) instead of at once, and down to
     * which it is gradual before the window drops to the cut; -1 (the default): always at once. The packets sent
     * until the gradual cut is over are covered as those in flight at the cut ({@link #exitCoversInFlight}).
     */
    default long gradualCutAbove() {
        return -1;
    }

    /** The controller takes the cut of {@link #windowCut} gradually ({@link #gradualCutAbove}). */
    default void onGradualCut() {}

    /**
     * Whether the packets in flight when {@link #onAck} ended slow start are covered by that exit: their losses start
     * no congestion event (as if the exit had started RFC 9002 §7.3.2's recovery period, without its no-growth phase).
     */
    default boolean exitCoversInFlight() {
        return false;
    }

    /**
     * The window to continue with when a packet covered by the exit ({@link #exitCoversInFlight}) is lost: the exit
     * came after the window had passed what the path holds, and the rule may give a smaller window than the one it
     * left with (once); {@code congestionWindow} (no change) by default.
     */
    default long windowAfterCoveredLoss(long congestionWindow) {
        return congestionWindow;
    }

    /**
     * A window the exit raises to when {@link #exitWindow} is below it: a standing queue the rule keeps on purpose
     * ({@link OnsetBdp} as onset-bdp-queue); -1 (the default) for none. When it is above the window at the exit, the
     * packets sent in the round after the exit are covered as the packets in flight then are
     * ({@link #exitCoversInFlight}): they carry the raise, and a loss among them is the same response's.
     */
    default long exitRaise() {
        return -1;
    }

    /**
     * The least window a congestion event after the exit may reduce to, asked at each congestion event with the
     * window then; -1 (the default) for none. The controller takes it when it lies between its own reduction and
     * the window.
     */
    default long congestionFloor(long congestionWindow) {
        return -1;
    }

    /**
     * Whether the first congestion event after this rule ended slow start without a loss (its exit, or a covered
     * loss that lowered the window) takes CUBIC's fast convergence (RFC 9438 §4.7: W_max = cwnd × (1 + β) / 2) even
     * though the window then is above the W_max of the exit's epoch; false (the default): RFC 9438 §4.10 as is.
     * {@link OnsetBdp} as onset-bdp-queue: slow start passed what the path holds before the rule cut the window, so
     * the first loss after the exit is the second sign of the same limit, as HyStart++'s overshoot makes it.
     */
    default boolean convergeAfterExit() {
        return false;
    }

    /** A congestion event (or any other end of the initial slow start): the rule is over for this connection. */
    void stop();

    /** Whether the rule still runs. */
    boolean active();

    /**
     * The pacing rate while the rule runs, bytes per second, for a phase that probes the path at a rate of its own
     * (onset-bdp's check); 0 (the default): the pacer's slow-start gain × cwnd / smoothed RTT.
     */
    default long pacingRate() {
        return 0;
    }

    /**
     * The pacing rate once the rule has ended (its exit or a congestion event) and the controller is in congestion
     * avoidance, for the rest of the connection, bytes per second; 0 (the default): the pacer's gain × cwnd /
     * smoothed RTT ({@link OnsetBdp} as onset-bdp-queue: cwnd / the least RTT sample of this round and the last).
     */
    default long pacingRateAfterEnd(long congestionWindow) {
        return 0;
    }

    /** An ACK that arrived after the rule ended (its RTT estimates, for {@link #pacingRateAfterEnd}). */
    default void onAckAfterEnd(AckEvent ack) {}

    /** Whether the sender is in a reduced-growth phase of slow start (HyStart++'s Conservative Slow Start). */
    default boolean conservative() {
        return false;
    }

    /** The rule's state for qlog ({@link CongestionController#qlogState()}): snake_case keys. */
    void putQlogState(Map<String, Object> m);
}
