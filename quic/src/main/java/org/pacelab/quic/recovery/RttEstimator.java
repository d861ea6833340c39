package org.pacelab.quic.recovery;

import org.pacelab.quic.cc.RttEstimates;

/**
 * Round-trip time estimation, RFC 9002 §5. All times are nanoseconds.
 */
public final class RttEstimator {
    /** RFC 9002 §6.2.2: kInitialRtt = 333 ms. */
    public static final long INITIAL_RTT = 333_000_000L;
    /** RFC 9002 §6.1.2: kGranularity = 1 ms. */
    public static final long GRANULARITY = 1_000_000L;

    private final long initialRtt;
    private long latestRtt;
    private long smoothedRtt = INITIAL_RTT;
    private long rttVar = INITIAL_RTT / 2;
    private long minRtt = Long.MAX_VALUE;
    private long firstSampleTime = -1;
    private boolean hasSample;

    public RttEstimator() {
        this(INITIAL_RTT);
    }

    public RttEstimator(long initialRtt) {
        this.initialRtt = initialRtt;
        this.smoothedRtt = initialRtt;
        this.rttVar = initialRtt / 2;
    }

    /** Back to the initial values, as before the first sample (RFC 9002 §A.3; RFC 9000 §9.4 on a new path). */
    public void reset() {
        latestRtt = 0;
        smoothedRtt = initialRtt;
        rttVar = initialRtt / 2;
        minRtt = Long.MAX_VALUE;
        firstSampleTime = -1;
        hasSample = false;
    }

    /**
     * Updates the estimate with a new sample, RFC 9002 §5.3.
     *
     * @param now          the time the ACK was received
     * @param latestSample ack receive time minus the largest newly acknowledged packet's send time
     * @param ackDelay     the peer's reported ack delay, already decoded to nanoseconds
     * @param maxAckDelay  the peer's max_ack_delay transport parameter, ns
     * @param handshakeConfirmed whether ack delay may be capped by max_ack_delay (§5.3)
     */
    public void onSample(long now, long latestSample, long ackDelay, long maxAckDelay, boolean handshakeConfirmed) {
        latestRtt = Math.max(latestSample, 1);
        if (!hasSample) {
            // §5.2, §5.3: first sample
            minRtt = latestRtt;
            smoothedRtt = latestRtt;
            rttVar = latestRtt / 2;
            firstSampleTime = now;
            hasSample = true;
            return;
        }
        minRtt = Math.min(minRtt, latestRtt);
        if (handshakeConfirmed) {
            ackDelay = Math.min(ackDelay, maxAckDelay);
        }
        long adjusted = latestRtt;
        if (latestRtt >= minRtt + ackDelay) {
            adjusted = latestRtt - ackDelay;
        }
        rttVar = (3 * rttVar + Math.abs(smoothedRtt - adjusted)) / 4;
        smoothedRtt = (7 * smoothedRtt + adjusted) / 8;
    }

    /** RFC 9002 §5.2: after persistent congestion, min_rtt is reset to the latest sample. */
    public void resetMinRtt() {
        if (hasSample) {
            minRtt = latestRtt;
        }
    }

    /** PTO base without max_ack_delay and backoff, RFC 9002 §6.2.1. */
    public long ptoBase() {
        return smoothedRtt + Math.max(4 * rttVar, GRANULARITY);
    }

    public long latestRtt() { return latestRtt; }
    public long smoothedRtt() { return smoothedRtt; }
    public long rttVar() { return rttVar; }
    /** The minimum RTT seen, or {@link Long#MAX_VALUE} before the first sample. */
    public long minRtt() { return minRtt; }
    public boolean hasSample() { return hasSample; }

    /** The estimates as they stand now, as the values a congestion controller is given. */
    public RttEstimates estimates() {
        return new RttEstimates(latestRtt, smoothedRtt, rttVar, minRtt, hasSample);
    }
    /** Time of the first RTT sample, or -1 (used by persistent congestion, RFC 9002 §7.6.2). */
    public long firstSampleTime() { return firstSampleTime; }
}
