package org.pacelab.net.spec;

import org.pacelab.net.link.LossModel;

/**
 * Random loss as written: none, Bernoulli with probability p, or Gilbert-Elliott; {@code maxBurst} &gt; 0 limits
 * the losses in a row (the QUIC Interop Runner's drop-rate burst).
 */
public record LossSpec(Kind kind, double p, double r, double lossGood, double lossBad, int maxBurst) {
    public enum Kind { NONE, BERNOULLI, GILBERT_ELLIOTT }

    public static final LossSpec NONE = new LossSpec(Kind.NONE, 0, 0, 0, 0, 0);

    public LossSpec(Kind kind, double p, double r, double lossGood, double lossBad) {
        this(kind, p, r, lossGood, lossBad, 0);
    }

    /** The same loss with at most {@code n} losses in a row (0: no limit). */
    public LossSpec withMaxBurst(int n) {
        return new LossSpec(kind, p, r, lossGood, lossBad, n);
    }

    /** A fresh model (Gilbert-Elliott and burst limits keep state, so each direction gets its own). */
    public LossModel create() {
        LossModel m = switch (kind) {
            case NONE -> new LossModel.None();
            case BERNOULLI -> new LossModel.Bernoulli(p);
            case GILBERT_ELLIOTT -> new LossModel.GilbertElliott(p, r, lossGood, lossBad);
        };
        return maxBurst > 0 && kind != Kind.NONE ? new LossModel.BurstLimited(m, maxBurst) : m;
    }

    @Override
    public String toString() {
        String burst = maxBurst > 0 ? ",burst=" + maxBurst : "";
        return switch (kind) {
            case NONE -> "0%";
            case BERNOULLI -> (p * 100) + "%" + burst;
            case GILBERT_ELLIOTT -> "ge:p=" + p + ",r=" + r + ",good=" + lossGood + ",bad=" + lossBad + burst;
        };
    }
}
