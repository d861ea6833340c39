package org.pacelab.sim.qdisc;

import java.util.random.RandomGenerator;

import org.pacelab.sim.host.EmpiricalDistribution;

/**
 * A qdisc's watchdog timer (the kernel's {@code qdisc_watchdog_schedule_range_ns}): programmed for an expiry, it
 * fires later by the timer slack plus a sampled hrtimer lateness. Programming it again for the same expiry keeps the
 * time already drawn, as the kernel leaves an armed timer alone.
 */
final class QdiscWatchdog {
    private final long slackNanos;
    private final EmpiricalDistribution lateness;
    private final RandomGenerator random;
    private long fires = Long.MAX_VALUE;
    private long expiry = Long.MAX_VALUE;

    QdiscWatchdog(long slackNanos, EmpiricalDistribution lateness, RandomGenerator random) {
        this.slackNanos = slackNanos;
        this.lateness = lateness;
        this.random = random;
    }

    /** Programs the watchdog for {@code expiry}; {@link Long#MAX_VALUE} cancels it. */
    void schedule(long expiry) {
        if (expiry == Long.MAX_VALUE) {
            cancel();
        } else if (expiry != this.expiry) {
            this.expiry = expiry;
            fires = expiry + slackNanos + lateness.sample(random);
        }
    }

    void cancel() {
        fires = Long.MAX_VALUE;
        expiry = Long.MAX_VALUE;
    }

    /** When it fires, or {@link Long#MAX_VALUE} when not armed. */
    long firesAt() {
        return fires;
    }
}
