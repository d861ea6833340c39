package org.pacelab.quic.recovery;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.cc.CongestionControllers;
import org.pacelab.quic.cc.ControllerConfig;
import org.pacelab.quic.pacing.Pacer;
import org.pacelab.quic.pacing.PacingConfig;
import org.pacelab.quic.pacing.PacingRate;
import org.pacelab.quic.pacing.PacingRateCalculator;

/**
 * The congestion-control parts of one connection, made by {@link #create}: the controller, its pacer, the
 * pacing-rate calculator and the delivery-rate estimator the controller's rate samples come from. The controller and
 * the pacer know nothing of each other or of recovery: this class hands each the plain values it needs (the
 * controller, for one, only whether the connection paces).
 */
public final class CongestionSetup {
    private final CongestionController controller;
    private final Pacer pacer;
    private final PacingRateCalculator pacingRate;
    private final DeliveryRateEstimator estimator;

    private CongestionSetup(CongestionController controller, Pacer pacer, PacingRateCalculator pacingRate,
                            DeliveryRateEstimator estimator) {
        this.controller = controller;
        this.pacer = pacer;
        this.pacingRate = pacingRate;
        this.estimator = estimator;
    }

    /** As {@link #create(ControllerConfig, PacingConfig, int, RandomGenerator)} with a fixed-seed random source. */
    public static CongestionSetup create(ControllerConfig controllerConfig, PacingConfig pacing, int maxDatagramSize) {
        return create(controllerConfig, pacing, maxDatagramSize,
                new SplittableRandom(CongestionControllers.DEFAULT_SEED));
    }

    /**
     * @param controllerConfig the congestion controller's configuration
     * @param pacing           the pacer's configuration
     * @param maxDatagramSize  the path's maximum datagram size, bytes (at least 1200)
     * @param random           randomness for controllers that need it (BBR's ProbeBW wait)
     */
    public static CongestionSetup create(ControllerConfig controllerConfig, PacingConfig pacing, int maxDatagramSize,
                                         RandomGenerator random) {
        DeliveryRateEstimator estimator = new DeliveryRateEstimator();
        CongestionController controller = CongestionControllers.create(controllerConfig, pacing.paced(),
                maxDatagramSize, random, estimator::markAppLimited);
        Pacer pacer = pacing.pacer().create(pacing.initialBurst());
        return new CongestionSetup(controller, pacer, new PacingRateCalculator(pacing, maxDatagramSize), estimator);
    }

    public CongestionController controller() { return controller; }

    public Pacer pacer() { return pacer; }

    public PacingRateCalculator pacingRate() { return pacingRate; }

    public DeliveryRateEstimator estimator() { return estimator; }

    /** Computes the pacer's input from the controller and gives it to the pacer; returns it (for qlog). */
    public PacingRate updatePacer(long now, RttEstimator rtt, long bytesInFlight) {
        PacingRate r = pacingRate.compute(controller.congestionWindow(), controller.inSlowStart(),
                controller.pacingRate(), controller.sendQuantum(), rtt.hasSample(), rtt.smoothedRtt(), bytesInFlight);
        pacer.update(now, r);
        return r;
    }

    /** The path's maximum datagram size changed: the controller recalculates its windows, the calculator its quanta. */
    public void onMaxDatagramSizeChanged(int maxDatagramSize) {
        controller.onMaxDatagramSizeChanged(maxDatagramSize);
        pacingRate.setMaxDatagramSize(maxDatagramSize);
    }
}
