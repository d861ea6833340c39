package org.pacelab.quic.cc;

import org.pacelab.quic.pacing.Pacer;
import org.pacelab.quic.pacing.PacingRate;
import org.pacelab.quic.pacing.PacingRateCalculator;
import org.pacelab.quic.recovery.DeliveryRateEstimator;
import org.pacelab.quic.recovery.RttEstimator;

/**
 * The congestion-control parts of one connection, made by {@link CongestionControllers#create}: the
 * controller, its pacer, the pacing-rate calculator and the delivery-rate estimator the controller reads
 * (BBR needs the same instance the connection feeds).
 */
public final class CongestionSetup {
    private final CongestionConfig config;
    private final CongestionController controller;
    private final Pacer pacer;
    private final PacingRateCalculator pacingRate;
    private final DeliveryRateEstimator estimator;

    CongestionSetup(CongestionConfig config, CongestionController controller, Pacer pacer,
                    PacingRateCalculator pacingRate, DeliveryRateEstimator estimator) {
        this.config = config;
        this.controller = controller;
        this.pacer = pacer;
        this.pacingRate = pacingRate;
        this.estimator = estimator;
    }

    public CongestionConfig config() { return config; }

    public CongestionController controller() { return controller; }

    public Pacer pacer() { return pacer; }

    public PacingRateCalculator pacingRate() { return pacingRate; }

    public DeliveryRateEstimator estimator() { return estimator; }

    /** Computes the pacer's input from the controller and gives it to the pacer; returns it (for qlog). */
    public PacingRate updatePacer(long now, RttEstimator rtt, long bytesInFlight) {
        PacingRate r = pacingRate.compute(controller, rtt, bytesInFlight);
        pacer.update(now, r);
        return r;
    }

    /** The path's maximum datagram size changed. */
    public void onMaxDatagramSizeChanged(int maxDatagramSize) {
        controller.onMaxDatagramSizeChanged(maxDatagramSize);
        pacingRate.setMaxDatagramSize(maxDatagramSize);
    }
}
