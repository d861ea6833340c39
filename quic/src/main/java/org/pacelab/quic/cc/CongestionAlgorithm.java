package org.pacelab.quic.cc;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The congestion controllers selectable with {@code --cc}. */
public enum CongestionAlgorithm {
    /** {@link NewRenoController}, RFC 9002. */
    NEWRENO("newreno"),
    /** {@link CubicController}, RFC 9438. */
    CUBIC("cubic"),
    /** {@link BbrV3Controller}, draft-ietf-ccwg-bbr. */
    BBR("bbr");

    private final String optionValue;

    CongestionAlgorithm(String optionValue) {
        this.optionValue = optionValue;
    }

    public String optionValue() { return optionValue; }

    /** Parses a {@code --cc} value; the error sentence lists the valid values. */
    public static CongestionAlgorithm parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (CongestionAlgorithm a : values()) {
            if (a.optionValue.equals(v)) {
                return a;
            }
        }
        throw new IllegalArgumentException(ControllerConfig.CC + ": '" + value
                + "' is not a congestion controller; valid values are "
                + Arrays.stream(values()).map(CongestionAlgorithm::optionValue).collect(Collectors.joining(", ")) + ".");
    }
}
