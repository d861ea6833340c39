package org.pacelab.quic.pacing;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The pacers selectable with {@code --pacer}. */
public enum PacerKind {
    /** {@link NoPacer}. */
    NONE("none"),
    /** {@link LeakyBucketPacer} (picoquic). */
    LEAKY_BUCKET("leaky-bucket"),
    /** {@link IntervalPacer} (ngtcp2, quiche). */
    INTERVAL("interval"),
    /** {@link TokenBucketPacer} (quic-go, quinn). */
    TOKEN_BUCKET("token-bucket");

    private final String optionValue;

    PacerKind(String optionValue) {
        this.optionValue = optionValue;
    }

    public String optionValue() { return optionValue; }

    /** A new pacer of this kind. */
    public Pacer create(int initialBurst) {
        return switch (this) {
            case NONE -> new NoPacer();
            case LEAKY_BUCKET -> new LeakyBucketPacer(initialBurst);
            case INTERVAL -> new IntervalPacer(initialBurst);
            case TOKEN_BUCKET -> new TokenBucketPacer(initialBurst);
        };
    }

    /** Parses a {@code --pacer} value; the error sentence lists the valid values. */
    public static PacerKind parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (PacerKind k : values()) {
            if (k.optionValue.equals(v)) {
                return k;
            }
        }
        throw new IllegalArgumentException(PacingConfig.PACER + ": '" + value + "' is not a pacer; valid values are "
                + Arrays.stream(values()).map(PacerKind::optionValue).collect(Collectors.joining(", ")) + ".");
    }
}
