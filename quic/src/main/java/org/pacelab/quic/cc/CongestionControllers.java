package org.pacelab.quic.cc;

import java.util.function.LongConsumer;
import java.util.random.RandomGenerator;

/**
 * Makes the congestion controller a {@link ControllerConfig} describes (recovery's {@code CongestionSetup} adds the
 * pacer and the delivery-rate estimation around it).
 */
public final class CongestionControllers {
    /** Seed of the default random source: runs are reproducible unless a source is passed in. */
    public static final long DEFAULT_SEED = 0x9ace1abL;

    private CongestionControllers() {}

    /**
     * @param paced                    whether the connection paces (any pacer but {@code none}): HyStart++'s L, Linux
     *                                 HyStart's ACK-train threshold, the span of the onset rules' run of samples
     * @param maxDatagramSize          the path's maximum datagram size, bytes
     * @param random                   randomness for controllers that need it (BBR's ProbeBW wait)
     * @param markConnectionAppLimited the connection's MarkConnectionAppLimited, given the bytes in flight (BBR
     *                                 calls it in ProbeRTT; draft-ietf-ccwg-bbr §"Delivery Rate Samples")
     */
    public static CongestionController create(ControllerConfig config, boolean paced, int maxDatagramSize,
                                              RandomGenerator random, LongConsumer markConnectionAppLimited) {
        if (maxDatagramSize < 1200) {
            throw new IllegalArgumentException("maximum datagram size must be at least 1200 bytes (RFC 9000 §14), got "
                    + maxDatagramSize + ".");
        }
        return switch (config.algorithm()) {
            case NEWRENO -> new NewRenoController(maxDatagramSize, config.slowStart().create(paced));
            case CUBIC -> new CubicController(maxDatagramSize, config.slowStart().create(paced), config.rollback(),
                    config.fastConvergence());
            case BBR -> new BbrV3Controller(maxDatagramSize, markConnectionAppLimited, random,
                    config.slowStart().rule() == SlowStartRule.QUEUE_ONSET
                            ? new QueueOnset(config.slowStart().onsetMinDelay(), paced) : null);
        };
    }
}
