package org.pacelab.sim;

import org.pacelab.sim.host.EmpiricalDistribution;
import org.pacelab.sim.host.HostTiming;

/** Host timings for tests: fixed shapes, so a test's outcome does not depend on the bundled calibration. */
final class TestHosts {
    private TestHosts() {}

    private static EmpiricalDistribution between(long low, long high) {
        return EmpiricalDistribution.ofQuantiles("test", new long[] {low, (low + high) / 2, high});
    }

    /**
     * A quiet host: park resumes 55–65 µs late (50 µs slack), park-tight 3–9 µs, spin within 200 ns, socket wake-ups
     * 15–30 µs, kernel timers 2–12 µs; costs of a fast server.
     */
    static HostTiming quiet() {
        return new HostTiming("test: quiet host", between(55_000, 65_000), between(3_000, 9_000), between(50, 200),
                between(50_000, 70_000), between(15_000, 30_000), between(2_000, 12_000),
                3_000, 2_500, 1_500, 4_000, 300, 1_000, 400, 1_500, 400, 2_000, 4_000, 6_000, 3_000, 300);
    }
}
