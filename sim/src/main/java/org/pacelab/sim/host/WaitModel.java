package org.pacelab.sim.host;

import java.util.random.RandomGenerator;

import org.pacelab.io.runtime.WaitStrategies;
import org.pacelab.io.runtime.WaitStrategy;

/**
 * When a waiting event loop resumes, in virtual time: the model of the io runtime's waits
 * ({@link org.pacelab.io.runtime.EventLoop}). Short waits go to the send strategy and ignore arriving datagrams;
 * longer ones go to the socket's readiness wait ({@code Selector.select} with a millisecond timeout), which a
 * datagram ends early. Every resume draws its lateness from the host's measured distributions.
 */
public final class WaitModel {
    private final String strategy;
    private final long socketWaitThreshold;
    private final HostTiming timing;
    private final RandomGenerator random;

    public WaitModel(String strategy, HostTiming timing, RandomGenerator random) {
        WaitStrategy real = WaitStrategies.parse(strategy);
        this.strategy = real.name();
        this.socketWaitThreshold = real.socketWaitThreshold();
        this.timing = timing;
        this.random = random;
    }

    /** Waits longer than this go to the socket's readiness wait (as {@link WaitStrategy#socketWaitThreshold()}). */
    public long socketWaitThreshold() {
        return socketWaitThreshold;
    }

    /** When the send strategy's wait for {@code deadline}, begun at {@code now}, returns. */
    public long strategyResume(long now, long deadline) {
        return switch (strategy) {
            case "park" -> deadline + timing.parkLateness().sample(random);
            case "park-tight" -> deadline + timing.parkTightLateness().sample(random);
            case "spin" -> deadline + timing.spinLateness().sample(random);
            case "hybrid" -> {
                long spinFrom = deadline - WaitStrategies.DEFAULT_SPIN_NANOS;
                long resume = now;
                if (spinFrom > now) {
                    resume = spinFrom + timing.parkLateness().sample(random);
                }
                yield Math.max(resume, deadline) + timing.spinLateness().sample(random);
            }
            default -> throw new IllegalStateException("unknown strategy " + strategy);
        };
    }

    /**
     * The timeout of the readiness wait the loop starts at {@code now} for a wake-up at {@code deadline}:
     * {@code awaitReadable(delay - threshold/2)}, which Selector.select rounds down to whole milliseconds (at
     * least 1).
     */
    public long socketTimeout(long now, long deadline) {
        long t = deadline - now - socketWaitThreshold / 2;
        return Math.max(1, t / 1_000_000L) * 1_000_000L;
    }

    /** When a readiness wait with {@code timeout} begun at {@code now} returns if no datagram arrives. */
    public long socketTimeoutResume(long now, long timeout) {
        long lateness = timing.socketTimeoutLateness().sample(random);
        long resume = now + timeout;
        // a loop with no timer waits for a deadline of Long.MAX_VALUE: its timeout ends within a millisecond of it,
        // and a late resume past it would wrap around into the past; such a wait ends only by a datagram's arrival
        return resume > Long.MAX_VALUE - lateness ? Long.MAX_VALUE : resume + lateness;
    }

    /** When a readiness wait returns after a datagram arrived at {@code arrival}. */
    public long socketWakeResume(long arrival) {
        return arrival + timing.socketWakeLatency().sample(random);
    }
}
