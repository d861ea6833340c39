package org.pacelab.quic.cc;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How {@link CubicController} undoes a window reduction that turns out to be unnecessary
 * ({@code --rollback}).
 */
public enum CubicRollback {
    /** Never undo a reduction. */
    OFF("off"),
    /**
     * RFC 9438 §4.9.2: at each congestion event save cwnd, cwnd_prior, ssthresh, W_max, K, t_epoch and W_est;
     * when every packet declared lost in that congestion episode has been acknowledged after all (the loss
     * was spurious) and cwnd &lt; cwnd_prior, restore them.
     */
    RFC9438("rfc9438"),
    /**
     * quiche's aggressive rollback (quiche src/recovery/congestion/cubic.rs): at each congestion event save
     * cwnd, ssthresh, W_max, K, the CUBIC epoch, the recovery start time and the count of lost packets; on
     * every later ACK of a packet sent after the recovery period started (and not application-limited), if
     * fewer packets were lost since the checkpoint than max(2, floor(cwnd/mds) * 20 / 100), the episode is
     * taken as spurious and the checkpoint is restored, unless the checkpoint was taken in slow start or
     * cwnd already reached the checkpoint's cwnd. Restoring the old recovery start time ends the recovery
     * period, so later losses from the same flight start a new congestion event: the sawtooth the QUIC
     * Steps study observed.
     */
    QUICHE("quiche");

    private final String optionValue;

    CubicRollback(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The value used with {@code --rollback}. */
    public String optionValue() { return optionValue; }

    /** Parses a {@code --rollback} value; the error sentence lists the valid values. */
    public static CubicRollback parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (CubicRollback r : values()) {
            if (r.optionValue.equals(v)) {
                return r;
            }
        }
        throw new IllegalArgumentException("--rollback: '" + value + "' is not a rollback mode; valid values are "
                + choices() + ".");
    }

    static String choices() {
        return Arrays.stream(values()).map(CubicRollback::optionValue).collect(Collectors.joining(", "));
    }
}
