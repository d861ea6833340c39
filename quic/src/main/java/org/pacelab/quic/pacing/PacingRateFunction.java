package org.pacelab.quic.pacing;

import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.recovery.RttEstimator;

/** Computes the pacer's inputs from the congestion controller's state (rate = gain × cwnd / srtt, or the CC's own). */
@FunctionalInterface
public interface PacingRateFunction {
    PacingRate compute(CongestionController cc, RttEstimator rtt, long bytesInFlight);
}
