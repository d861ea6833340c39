package org.pacelab.net.spec;

import org.pacelab.net.link.LossModel;

/** Random loss as written: none, Bernoulli with probability p, or Gilbert-Elliott. */
public record LossSpec(Kind kind, double p, double r, double lossGood, double lossBad) {
    public enum Kind { NONE, BERNOULLI, GILBERT_ELLIOTT }

    public static final LossSpec NONE = new LossSpec(Kind.NONE, 0, 0, 0, 0);

    /** A fresh model (Gilbert-Elliott keeps state, so each direction gets its own). */
    public LossModel create() {
        return switch (kind) {
            case NONE -> new LossModel.None();
            case BERNOULLI -> new LossModel.Bernoulli(p);
            case GILBERT_ELLIOTT -> new LossModel.GilbertElliott(p, r, lossGood, lossBad);
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NONE -> "0%";
            case BERNOULLI -> (p * 100) + "%";
            case GILBERT_ELLIOTT -> "ge:p=" + p + ",r=" + r + ",good=" + lossGood + ",bad=" + lossBad;
        };
    }
}
