package org.pacelab.quic.cc;

/**
 * The RTT estimates of RFC 9002 §5 as they stand at one event, as plain values (recovery's
 * {@code RttEstimator.estimates()} makes them).
 *
 * @param latestRtt   latest_rtt, ns
 * @param smoothedRtt smoothed_rtt, ns (kInitialRtt until the first sample)
 * @param rttVar      rttvar, ns
 * @param minRtt      min_rtt, ns
 * @param hasSample   whether any RTT sample was taken yet
 */
public record RttEstimates(long latestRtt, long smoothedRtt, long rttVar, long minRtt, boolean hasSample) {
}
