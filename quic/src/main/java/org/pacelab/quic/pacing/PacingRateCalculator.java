package org.pacelab.quic.pacing;

/**
 * Turns the congestion controller's state into the pacer's input, after every event that may change it
 * (ACK, loss, packet sent). It is given plain values (the window, whether the controller is in slow start, the
 * controller's own rate and quantum, the smoothed RTT), so pacing depends on neither the controllers nor recovery.
 *
 * <ol>
 *   <li>Rate: the controller's own pacing rate when it has one (BBR); otherwise
 *       gain * cwnd / smoothed RTT with {@link PacingConfig#gainSlowStart()} while the controller is in slow start
 *       and {@link PacingConfig#gainCongestionAvoidance()} after; 0 (do not pace) before the first RTT sample.</li>
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

    /**
     * The pacer's input for the controller's current state.
     *
     * @param congestionWindow  the controller's window, bytes
     * @param inSlowStart       whether the controller is in slow start (or BBR's Startup): selects the gain
     * @param controllerRate    the controller's own pacing rate, bytes per second, or 0 when it has none
     * @param controllerQuantum the controller's send quantum, bytes, or 0
     * @param hasRttSample      whether an RTT sample was taken yet
     * @param smoothedRtt       the smoothed RTT, ns
     * @param bytesInFlight     bytes in flight (0: idle)
     */
    public PacingRate compute(long congestionWindow, boolean inSlowStart, long controllerRate, long controllerQuantum,
                              boolean hasRttSample, long smoothedRtt, long bytesInFlight) {
        return compute(congestionWindow, inSlowStart, controllerRate, controllerQuantum, hasRttSample, smoothedRtt,
                bytesInFlight, config, maxDatagramSize);
    }

    /** As {@link #compute(long, boolean, long, long, boolean, long, long)}, with the configuration passed in. */
    public static PacingRate compute(long congestionWindow, boolean inSlowStart, long controllerRate,
                                     long controllerQuantum, boolean hasRttSample, long smoothedRtt, long bytesInFlight,
                                     PacingConfig config, int maxDatagramSize) {
        long rate;
        if (controllerRate > 0) {
            rate = controllerRate;
        } else if (!hasRttSample || smoothedRtt <= 0) {
            rate = 0;
        } else {
            double gain = inSlowStart ? config.gainSlowStart() : config.gainCongestionAvoidance();
            rate = (long) (gain * congestionWindow * 1e9 / smoothedRtt);
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
        long quantum = config.quantum().bytes(rate, maxDatagramSize, controllerQuantum);
        return new PacingRate(rate, quantum, congestionWindow, smoothedRtt, bytesInFlight == 0);
    }
}
