package org.pacelab.quic.pacing;

/**
 * Decides when each packet may leave (the first of pacing's two decisions; the runtime's send strategy
 * makes the second, how the host honours it). A pacer reads no clock: time is passed in, in ns.
 *
 * <p>The connection asks {@link #releaseTime} before building a packet; if the answer is later than now
 * (plus any look-ahead the runtime allows), it reports "blocked until T" to the runtime. When a packet is
 * released it calls {@link #onPacketSent} with the packet's intended send time, which is recorded in qlog.
 */
public interface Pacer {

    /** Short name used on the command line and in qlog, e.g. {@code none}, {@code interval}. */
    String name();

    /**
     * Earliest time at which a packet of {@code size} bytes may be released. A value at or before
     * {@code now} means immediately.
     */
    long releaseTime(long now, int size);

    /** A packet of {@code size} bytes was released with this intended send time. */
    void onPacketSent(long intendedSendTime, int size);

    /**
     * Updates the pacing rate. Called after every event that may change the congestion window, the RTT
     * or the controller's rate.
     */
    void update(long now, PacingRate rate);
}
