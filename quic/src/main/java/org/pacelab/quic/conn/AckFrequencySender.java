package org.pacelab.quic.conn;

import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.recovery.LossDetector;
import org.pacelab.quic.recovery.RttEstimator;

/**
 * Decides when to ask the peer to acknowledge less often, and what to ask (draft-ietf-quic-ack-frequency §4, §9).
 * Only a peer that announced min_ack_delay is asked, and only once the congestion controller has left slow start:
 * until then growth and the slow-start exit (HyStart++ samples the RTT per round) want RFC 9000's ACK every second
 * packet, as Linux's quick ACKs and Chromium's ACK decimation (from the 100th packet) also keep them early on.
 * The request follows the congestion window:
 * <ul>
 *   <li>ACK ratio: a quarter of the window in packets, so that at least four ACKs come back per window (the
 *       draft's §9.1 asks for one per RTT at least; ACK clocking and burst limits want more), between 2 (RFC
 *       9000's default) and the configured maximum (10 by default);</li>
 *   <li>max ack delay: a quarter of the smoothed RTT, within the peer's min_ack_delay and its max_ack_delay;</li>
 *   <li>reordering threshold: 3, RFC 9002's packet threshold, so a loss is reported as soon as it can be
 *       declared (§6.2: not larger than the sender's threshold).</li>
 * </ul>
 * A new frame goes out when the values change (the ratio, or the delay by more than a quarter), at most once per
 * smoothed RTT; a lost frame is sent again, with current values and a new sequence number, unless a newer one
 * went out since.
 */
final class AckFrequencySender {
    private final int maxRatio;
    /** The peer's min_ack_delay, ns; -1 while it announced none (it then gets no extension frames). */
    private long peerMinAckDelay = -1;
    /** The peer's max_ack_delay transport parameter, ns. */
    private long peerMaxAckDelay = 25_000_000L;
    private long nextSequence;
    private AckFrequencyFrame latest;
    private long latestSentAt;
    private boolean latestLost;

    /** @param maxRatio the most packets per ACK to ask for; 0 never asks */
    AckFrequencySender(int maxRatio) {
        this.maxRatio = maxRatio;
    }

    /** The peer's transport parameters: min_ack_delay in microseconds (-1 when absent), max_ack_delay in ns. */
    void onPeerTransportParameters(long minAckDelayMicros, long maxAckDelayNanos) {
        this.peerMinAckDelay = minAckDelayMicros < 0 ? -1 : minAckDelayMicros * 1000;
        this.peerMaxAckDelay = maxAckDelayNanos;
    }

    /** Whether the peer accepts ACK_FREQUENCY and IMMEDIATE_ACK frames. */
    boolean peerSupports() {
        return peerMinAckDelay >= 0;
    }

    /** Whether we ask the peer for a different ACK frequency (and so may have made it wait longer to ACK). */
    boolean active() {
        return peerSupports() && maxRatio > 0 && latest != null;
    }

    /** A packet that carried this frame was lost (or is probed again). */
    void onLost(long sequenceNumber) {
        if (latest != null && latest.sequenceNumber() == sequenceNumber) {
            latestLost = true;
        }
    }

    /** Whether {@code f} is the latest request (its acknowledgment makes its max ack delay the peer's). */
    boolean isLatest(AckFrequencyFrame f) {
        return latest != null && latest.sequenceNumber() == f.sequenceNumber();
    }

    /**
     * The ACK_FREQUENCY frame to send now, or null.
     *
     * @param congestionWindow bytes
     * @param maxDatagramSize  bytes
     * @param inSlowStart      whether the congestion controller is in slow start (or BBR's Startup)
     */
    AckFrequencyFrame next(long now, long congestionWindow, int maxDatagramSize, RttEstimator rtt, boolean inSlowStart) {
        if (!peerSupports() || maxRatio == 0 || !rtt.hasSample() || latest == null && inSlowStart) {
            return null;
        }
        long ratio = Math.max(2, Math.min(maxRatio, congestionWindow / (4L * maxDatagramSize)));
        long delay = Math.max(peerMinAckDelay, Math.min(peerMaxAckDelay, Math.max(RttEstimator.GRANULARITY,
                rtt.smoothedRtt() / 4)));
        long delayMicros = delay / 1000;
        long threshold = ratio - 1;
        long reordering = LossDetector.PACKET_THRESHOLD;
        if (latest != null && !latestLost) {
            boolean changed = latest.ackElicitingThreshold() != threshold
                    || Math.abs(latest.requestMaxAckDelay() - delayMicros) * 4 > latest.requestMaxAckDelay();
            if (!changed || now - latestSentAt < rtt.smoothedRtt()) {
                return null;
            }
        }
        latest = new AckFrequencyFrame(nextSequence++, threshold, delayMicros, reordering);
        latestSentAt = now;
        latestLost = false;
        return latest;
    }
}
