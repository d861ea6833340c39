package org.pacelab.net.link;

import java.util.random.RandomGenerator;

/** The random part of a delay line's delay. */
public sealed interface Jitter {
    /** A delay sample in ns around {@code base} (never negative). */
    long sample(long base, RandomGenerator rng);

    /** No jitter: every packet gets exactly the base delay. */
    record None() implements Jitter {
        @Override public long sample(long base, RandomGenerator rng) { return base; }
        @Override public String toString() { return "none"; }
    }

    /**
     * Normal with standard deviation {@code cov} times the base delay (coefficient of variation) or
     * {@code sdNanos} when cov is 0. Samples below 0 are clipped to 0.
     */
    record Normal(double cov, long sdNanos) implements Jitter {
        public Normal {
            if (cov < 0 || sdNanos < 0) throw new IllegalArgumentException("jitter spread must not be negative");
        }
        @Override public long sample(long base, RandomGenerator rng) {
            double sd = cov > 0 ? cov * base : sdNanos;
            return Math.max(0, Math.round(base + sd * rng.nextGaussian()));
        }
        @Override public String toString() { return cov > 0 ? "normal:cov=" + cov : "normal:sd=" + sdNanos + "ns"; }
    }

    /** Uniform in [base - halfWidth, base + halfWidth], clipped at 0. */
    record Uniform(long halfWidthNanos) implements Jitter {
        public Uniform {
            if (halfWidthNanos < 0) throw new IllegalArgumentException("jitter width must not be negative");
        }
        @Override public long sample(long base, RandomGenerator rng) {
            if (halfWidthNanos == 0) return base;
            return Math.max(0, base + rng.nextLong(-halfWidthNanos, halfWidthNanos + 1));
        }
        @Override public String toString() { return "uniform:" + halfWidthNanos + "ns"; }
    }
}
