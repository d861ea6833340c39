package org.pacelab.net.link;

import java.util.random.RandomGenerator;

/** Decides which packets random loss takes. */
public sealed interface LossModel {
    boolean lose(RandomGenerator rng);

    /** The long-run loss probability. */
    double stationaryLossRate();

    record None() implements LossModel {
        @Override public boolean lose(RandomGenerator rng) { return false; }
        @Override public double stationaryLossRate() { return 0; }
        @Override public String toString() { return "none"; }
    }

    /** Each packet is lost independently with probability {@code p}. */
    record Bernoulli(double p) implements LossModel {
        public Bernoulli {
            if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("loss probability must be in [0, 1]");
        }
        @Override public boolean lose(RandomGenerator rng) { return p > 0 && rng.nextDouble() < p; }
        @Override public double stationaryLossRate() { return p; }
    }

    /**
     * Gilbert-Elliott: a two-state Markov chain stepped once per packet. From Good the chain moves to Bad with
     * probability {@code p}; from Bad to Good with {@code r}. A packet is lost with probability {@code lossGood}
     * in Good and {@code lossBad} in Bad (netem's gemodel p r 1-h 1-k). Stationary loss:
     * (r * lossGood + p * lossBad) / (p + r).
     */
    final class GilbertElliott implements LossModel {
        private final double p, r, lossGood, lossBad;
        private boolean bad;

        public GilbertElliott(double p, double r, double lossGood, double lossBad) {
            for (double v : new double[] {p, r, lossGood, lossBad}) {
                if (!(v >= 0 && v <= 1)) throw new IllegalArgumentException("Gilbert-Elliott probabilities must be in [0, 1]");
            }
            if (p + r == 0) throw new IllegalArgumentException("Gilbert-Elliott needs p + r > 0");
            this.p = p; this.r = r; this.lossGood = lossGood; this.lossBad = lossBad;
        }

        @Override public boolean lose(RandomGenerator rng) {
            bad = bad ? rng.nextDouble() >= r : rng.nextDouble() < p;
            double loss = bad ? lossBad : lossGood;
            return loss > 0 && rng.nextDouble() < loss;
        }

        @Override public double stationaryLossRate() { return (r * lossGood + p * lossBad) / (p + r); }

        @Override public String toString() {
            return "ge:p=" + p + ",r=" + r + ",good=" + lossGood + ",bad=" + lossBad;
        }
    }

    /**
     * Another model whose losses come in runs of at most {@code maxBurst} packets: after that many losses in a row
     * the next packet passes, and the inner model is not consulted for it (the QUIC Interop Runner's
     * {@code drop-rate} scenario, {@code --burst_to_client}/{@code --burst_to_server}; this lowers the loss rate a
     * little below the inner model's, as the runner's does).
     */
    final class BurstLimited implements LossModel {
        private final LossModel inner;
        private final int maxBurst;
        private int inARow;

        public BurstLimited(LossModel inner, int maxBurst) {
            if (maxBurst < 1) throw new IllegalArgumentException("a loss burst limit must be at least 1 packet");
            this.inner = inner;
            this.maxBurst = maxBurst;
        }

        @Override public boolean lose(RandomGenerator rng) {
            if (inARow >= maxBurst) {
                inARow = 0;
                return false;
            }
            boolean lost = inner.lose(rng);
            inARow = lost ? inARow + 1 : 0;
            return lost;
        }

        /** The inner model's rate (an upper bound: forced passes lower it slightly). */
        @Override public double stationaryLossRate() { return inner.stationaryLossRate(); }

        @Override public String toString() { return inner + " burst " + maxBurst; }
    }
}
