package org.pacelab.quic.cc;

import java.util.Map;

/**
 * A congestion controller, fed by loss detection (RFC 9002 §7 and Appendix B).
 *
 * <p>Controllers never read a clock: every event carries the time it happened. Bytes in flight are
 * tracked by the caller and passed in where a controller needs them. Implementations: NewReno
 * (RFC 9002 §7), CUBIC (RFC 9438), BBR.
 */
public interface CongestionController {

    /** Short name used on the command line and in qlog, e.g. {@code newreno}, {@code cubic}, {@code bbr}. */
    String name();

    /** Congestion window in bytes. */
    long congestionWindow();

    /** Slow start threshold in bytes; {@link Long#MAX_VALUE} while unset. */
    long slowStartThreshold();

    /** Current state as a qlog congestion state name, e.g. {@code slow_start}, {@code congestion_avoidance},
     * {@code recovery}, {@code application_limited}, or a controller-specific one such as {@code startup}. */
    String state();

    /** Whether the controller is in slow start (or its equivalent, e.g. BBR Startup); selects the pacing gain. */
    boolean inSlowStart();

    /**
     * The controller's own pacing rate in bytes per second, or 0 when it has none and the pacer should
     * derive one from the window and the smoothed RTT (NewReno, CUBIC).
     */
    default long pacingRate() { return 0; }

    /** The controller's preferred send quantum in bytes (BBR), or 0 to leave it to the pacer's configuration. */
    default long sendQuantum() { return 0; }

    /** A packet counting toward bytes in flight was sent. {@code bytesInFlight} includes it. */
    void onPacketSent(long now, PacketInfo packet, long bytesInFlight);

    /** An ACK frame acknowledged in-flight packets (after loss detection ran for that ACK). */
    void onAck(AckEvent ack);

    /** Loss detection declared in-flight packets lost. */
    void onLoss(LossEvent loss);

    /**
     * A packet that had been declared lost was acknowledged after all: the loss was spurious
     * (RFC 9002 §7.8 permits undo; RFC 9438 §4.9 describes it for CUBIC). Default: ignore.
     */
    default void onSpuriousLoss(long now, PacketInfo packet) {}

    /** The sender became application-limited or stopped being so (RFC 9002 §7.8). */
    default void onAppLimited(long now, boolean appLimited) {}

    /**
     * The path's maximum datagram size changed. RFC 9002 §7.2: the initial window is recalculated with the new size, and
     * a size decreased to complete the handshake sets the window to the new initial window. pacelab's size changes only
     * that way (down to the peer's max_udp_payload_size when its transport parameters arrive), so a smaller size sets
     * the window to {@link WindowBounds#initialWindow}; the minimum window follows the size. Default: ignore.
     */
    default void onMaxDatagramSizeChanged(int maxDatagramSize) {}

    /**
     * Controller-specific state for qlog, recorded by the connection next to the common metrics (e.g. in
     * {@code recovery:metrics_updated} or a {@code recovery:congestion_state_updated} event's data): keys are
     * snake_case, values are numbers, strings or booleans. Examples: CUBIC's {@code w_max}, {@code k_ms},
     * {@code rollbacks}; BBR's {@code max_bw}, {@code min_rtt_ms}, {@code pacing_gain}. Empty by default.
     */
    default Map<String, Object> qlogState() { return Map.of(); }
}
