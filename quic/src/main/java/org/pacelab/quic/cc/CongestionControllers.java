package org.pacelab.quic.cc;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import org.pacelab.quic.pacing.Pacer;
import org.pacelab.quic.pacing.PacingRateCalculator;
import org.pacelab.quic.recovery.DeliveryRateEstimator;

/** Makes the congestion controller and pacer a {@link CongestionConfig} describes. */
public final class CongestionControllers {
    /** Seed of the default random source: runs are reproducible unless a source is passed in. */
    public static final long DEFAULT_SEED = 0x9ace1abL;

    private CongestionControllers() {}

    /** As {@link #create(CongestionConfig, int, RandomGenerator)} with a fixed-seed random source. */
    public static CongestionSetup create(CongestionConfig config, int maxDatagramSize) {
        return create(config, maxDatagramSize, new SplittableRandom(DEFAULT_SEED));
    }

    /**
     * @param maxDatagramSize the path's maximum datagram size, bytes
     * @param random          randomness for controllers that need it (BBR's ProbeBW wait)
     */
    public static CongestionSetup create(CongestionConfig config, int maxDatagramSize, RandomGenerator random) {
        if (maxDatagramSize < 1200) {
            throw new IllegalArgumentException("maximum datagram size must be at least 1200 bytes (RFC 9000 §14), got "
                    + maxDatagramSize + ".");
        }
        DeliveryRateEstimator estimator = new DeliveryRateEstimator();
        CongestionController controller = switch (config.algorithm()) {
            case NEWRENO -> new NewRenoController(maxDatagramSize, config.slowStart().create(config.paced()));
            case CUBIC -> new CubicController(maxDatagramSize, config.slowStart().create(config.paced()), config.rollback(),
                    config.fastConvergence());
            case BBR -> new BbrV3Controller(maxDatagramSize, estimator, random,
                    config.slowStart().rule() == SlowStartRule.QUEUE_ONSET
                            ? new QueueOnset(config.slowStart().onsetMinDelay(), config.paced()) : null);
        };
        Pacer pacer = config.pacing().pacer().create(config.pacing().initialBurst());
        return new CongestionSetup(config, controller, pacer,
                new PacingRateCalculator(config.pacing(), maxDatagramSize), estimator);
    }
}
