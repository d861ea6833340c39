package org.pacelab.sim.host;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * A distribution of non-negative durations given by equally spaced quantiles (q[0] = minimum, q[n-1] = maximum),
 * sampled by inverting the piecewise-linear CDF through them. Measured latencies (timer wake-ups, system calls)
 * are stored this way, so a simulation reproduces their whole shape, tail included.
 */
public final class EmpiricalDistribution {
    private final long[] quantiles;

    private EmpiricalDistribution(long[] quantiles) {
        this.quantiles = quantiles;
    }

    /**
     * @param what      name used in error messages (e.g. {@code park_lateness_ns})
     * @param quantiles at least one value; non-negative and non-decreasing
     * @throws IllegalArgumentException naming {@code what} and the offending index
     */
    public static EmpiricalDistribution ofQuantiles(String what, long[] quantiles) {
        if (quantiles.length == 0) {
            throw new IllegalArgumentException(what + ": needs at least one quantile value");
        }
        for (int i = 0; i < quantiles.length; i++) {
            if (quantiles[i] < 0) {
                throw new IllegalArgumentException(what + "[" + i + "]: " + quantiles[i] + " is negative; durations are >= 0 ns");
            }
            if (i > 0 && quantiles[i] < quantiles[i - 1]) {
                throw new IllegalArgumentException(what + "[" + i + "]: " + quantiles[i] + " is below the previous quantile "
                        + quantiles[i - 1] + "; quantiles must not decrease");
            }
        }
        return new EmpiricalDistribution(quantiles.clone());
    }

    /** A distribution that is always {@code nanos}. */
    public static EmpiricalDistribution constant(long nanos) {
        return ofQuantiles("constant", new long[] {nanos});
    }

    /** The quantile values (a copy). */
    public long[] quantiles() {
        return quantiles.clone();
    }

    /** One sample, consuming exactly one draw of {@code random} (none for a constant). */
    public long sample(RandomGenerator random) {
        int n = quantiles.length;
        if (n == 1) {
            return quantiles[0];
        }
        double u = random.nextDouble() * (n - 1);
        int i = (int) u;
        if (i >= n - 1) {
            return quantiles[n - 1];
        }
        double frac = u - i;
        return quantiles[i] + Math.round(frac * (quantiles[i + 1] - quantiles[i]));
    }

    /** The value at cumulative probability {@code p} in [0, 1]. */
    public long quantile(double p) {
        int n = quantiles.length;
        if (n == 1) {
            return quantiles[0];
        }
        double u = Math.clamp(p, 0, 1) * (n - 1);
        int i = (int) u;
        if (i >= n - 1) {
            return quantiles[n - 1];
        }
        return quantiles[i] + Math.round((u - i) * (quantiles[i + 1] - quantiles[i]));
    }

    /** The mean of the piecewise-linear distribution. */
    public double mean() {
        int n = quantiles.length;
        if (n == 1) {
            return quantiles[0];
        }
        double sum = 0;
        for (int i = 0; i + 1 < n; i++) {
            sum += (quantiles[i] + quantiles[i + 1]) / 2.0;
        }
        return sum / (n - 1);
    }

    /**
     * The quantiles of a sample, {@code points} of them equally spaced (0 and 1 included): what a calibration
     * measurement stores.
     */
    public static EmpiricalDistribution fromSamples(String what, long[] samples, int points) {
        if (samples.length == 0) {
            throw new IllegalArgumentException(what + ": no samples");
        }
        long[] s = samples.clone();
        Arrays.sort(s);
        long[] q = new long[points];
        for (int k = 0; k < points; k++) {
            double pos = (double) k / (points - 1) * (s.length - 1);
            int i = (int) pos;
            double frac = pos - i;
            long v = i + 1 < s.length ? s[i] + Math.round(frac * (s[i + 1] - s[i])) : s[i];
            q[k] = Math.max(0, v);
        }
        for (int k = 1; k < points; k++) {
            q[k] = Math.max(q[k], q[k - 1]);
        }
        return ofQuantiles(what, q);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EmpiricalDistribution d && Arrays.equals(quantiles, d.quantiles);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(quantiles);
    }

    @Override
    public String toString() {
        return "EmpiricalDistribution[p50=" + quantile(0.5) + " ns, p99=" + quantile(0.99) + " ns, max="
                + quantiles[quantiles.length - 1] + " ns]";
    }
}
