package org.pacelab.quic.pacing;

import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.recovery.RttEstimator;

/**
 * Turns the congestion controller's state into the pacer's input, after every event that may change it
 * (ACK, loss, packet sent): {@code pacer.update(now, calculator.compute(cc, rtt, bytesInFlight))}.
 *
 * <ol>
 *   <li>Rate: the controller's own pacing rate when it has one (BBR); otherwise
 *       gain * cwnd / smoothed RTT with {@link PacingConfig#gainSlowStart()} while
 *       {@link CongestionController#inSlowStart()} and {@link PacingConfig#gainCongestionAvoidance()}
 *       after; 0 (do not pace) before the first RTT sample.</li>
 *   <li>Bounds, in this order: a known rate is raised to {@code --min-pacing-rate} and lowered to
 *       {@code --max-pacing-rate}; if it is then above {@code --unpaced-above}, it becomes 0: no pacing.</li>
 *   <li>Quantum: {@link Quantum#bytes} with the controller's send quantum (BBR) for {@code auto}.</li>
 *   <li>Idle: nothing in flight.</li>
 * </ol>
 */
public final class PacingRateCalculator {
    private final PacingConfig config;
    private int maxDatagramSize;

    public PacingRateCalculator(PacingConfig config, int maxDatagramSize) {
        this.config = config;
        this.maxDatagramSize = maxDatagramSize;
    }

    public PacingConfig config() { return config; }

    /** The path's maximum datagram size changed (it sizes quanta in packets). */
    public void setMaxDatagramSize(int maxDatagramSize) {
        this.maxDatagramSize = maxDatagramSize;
    }

    /** The pacer's input for the controller's current state. */
    public PacingRate compute(CongestionController cc, RttEstimator rtt, long bytesInFlight) {
        return compute(cc, rtt, bytesInFlight, config, maxDatagramSize);
    }

    /** As {@link #compute(CongestionController, RttEstimator, long)}, with everything passed in. */
    public static PacingRate compute(CongestionController cc, RttEstimator rtt, long bytesInFlight, PacingConfig config,
                                     int maxDatagramSize) {
        long cwnd = cc.congestionWindow();
        long rate;
        if (cc.pacingRate() > 0) {
            rate = cc.pacingRate();
        } else if (!rtt.hasSample() || rtt.smoothedRtt() <= 0) {
            rate = 0;
        } else {
            double gain = cc.inSlowStart() ? config.gainSlowStart() : config.gainCongestionAvoidance();
            rate = (long) (gain * cwnd * 1e9 / rtt.smoothedRtt());
        }
        if (rate > 0) {
            rate = Math.max(rate, config.minPacingRate());
            if (config.maxPacingRate() > 0) {
                rate = Math.min(rate, config.maxPacingRate());
            }
            if (config.unpacedAbove() > 0 && rate > config.unpacedAbove()) {
                rate = 0;
            }
        }
        long quantum = config.quantum().bytes(rate, maxDatagramSize, cc.sendQuantum());
        return new PacingRate(rate, quantum, cwnd, rtt.smoothedRtt(), bytesInFlight == 0);
    }
}
