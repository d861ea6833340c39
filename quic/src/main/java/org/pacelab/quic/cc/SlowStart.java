package org.pacelab.quic.cc;

import java.util.Locale;
import java.util.Map;

/**
 * The initial slow start shared by {@link NewRenoController} and {@link CubicController}: standard slow start
 * (RFC 9002 §7.3.1, RFC 9438 §4.10: the window grows by the bytes acknowledged) or, when a
 * {@link HyStartPlusPlus} is given, HyStart++ (RFC 9406) deciding the growth per ACK and when slow start ends
 * without loss. The controller keeps the window and ssthresh and says, per call, whether it is in slow start.
 *
 * <p>Per ACK the controller calls {@link #beginAck}, then {@link #increase} for each newly acknowledged packet
 * it grows the window for in slow start, then {@link #endAck}; when that returns true the controller sets
 * ssthresh to its window (RFC 9406 §4.2).
 */
public final class SlowStart {
    private final HyStartPlusPlus hystart;
    private boolean ackInProgress;

    /** @param hystart HyStart++ for the initial slow start, or null for standard slow start */
    public SlowStart(HyStartPlusPlus hystart) {
        this.hystart = hystart;
    }

    /** HyStart++, or null. */
    public HyStartPlusPlus hystart() { return hystart; }

    private boolean hystartRunning(boolean inSlowStart) {
        return hystart != null && hystart.active() && inSlowStart;
    }

    /** A packet was sent: HyStart++ starts a round with it when none runs. */
    public void onPacketSent(PacketInfo packet, boolean inSlowStart) {
        if (hystartRunning(inSlowStart)) {
            hystart.onPacketSent(packet);
        }
    }

    /** An ACK that may grow the window starts (after the application-limited check). */
    public void beginAck(boolean inSlowStart, int maxDatagramSize) {
        ackInProgress = hystartRunning(inSlowStart);
        if (ackInProgress) {
            hystart.beginAck(maxDatagramSize);
        }
    }

    /** The slow-start growth, in bytes, for one acknowledged packet of {@code ackedBytes}. */
    public long increase(long ackedBytes, boolean inSlowStart) {
        return hystartRunning(inSlowStart) ? hystart.increase(ackedBytes) : ackedBytes;
    }

    /** Ends the ACK begun with {@link #beginAck}: true when HyStart++ ends slow start now (RFC 9406 §4.2). */
    public boolean endAck(AckEvent ack) {
        boolean exit = ackInProgress && hystart.onAck(ack.rtt().latestRtt(), ack.acked())
                == HyStartPlusPlus.Outcome.EXIT_TO_CONGESTION_AVOIDANCE;
        ackInProgress = false;
        return exit;
    }

    /** A congestion event ends HyStart++ (RFC 9406 §4.3: it runs in the initial slow start only). */
    public void stop() {
        if (hystart != null) {
            hystart.stop();
        }
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
            return hystart != null && hystart.inCss() ? "conservative_slow_start" : "slow_start";
        }
        return "congestion_avoidance";
    }

    /** Adds HyStart++'s phase and CSS rounds to a controller's qlog state. */
    public void putQlogState(Map<String, Object> m) {
        if (hystart != null) {
            m.put("hystart_phase", hystart.phase().name().toLowerCase(Locale.ROOT));
            m.put("hystart_css_rounds", hystart.cssRounds());
        }
    }
}
