package org.pacelab.quic.cc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.quic.pacing.PacerKind;
import org.pacelab.quic.pacing.PacingConfig;

/**
 * The congestion-control and pacing configuration of a connection, with the option names used on
 * {@code pacelab server}/{@code client}, in scenario files and here.
 *
 * @param algorithm       {@code --cc}: newreno, cubic, bbr (default cubic)
 * @param slowStart       how newreno and cubic leave their initial slow start ({@link SlowStartConfig}: {@code
 *                        --slow-start} and its parameters, and the older {@code --hystart on|off})
 * @param rollback        {@code --rollback}: off, rfc9438, quiche — CUBIC's undo of spurious reductions
 *                        (default off)
 * @param fastConvergence {@code --fast-convergence}: on, off — CUBIC fast convergence (default on, RFC 9438 §4.7)
 * @param pacing          the pacer and its inputs ({@link PacingConfig})
 */
public record CongestionConfig(CongestionAlgorithm algorithm, SlowStartConfig slowStart, CubicRollback rollback,
                               boolean fastConvergence, PacingConfig pacing) {

    public static final String CC = "--cc";
    public static final String ROLLBACK = "--rollback";
    public static final String FAST_CONVERGENCE = "--fast-convergence";

    /** Every option of this configuration, the slow-start and pacing options included, in documentation order. */
    public static final List<String> OPTION_NAMES;

    static {
        List<String> names = new ArrayList<>(List.of(CC));
        names.addAll(SlowStartConfig.OPTION_NAMES);
        names.addAll(List.of(ROLLBACK, FAST_CONVERGENCE));
        names.addAll(PacingConfig.OPTION_NAMES);
        OPTION_NAMES = List.copyOf(names);
    }

    public static final CongestionConfig DEFAULT = new CongestionConfig(CongestionAlgorithm.CUBIC, SlowStartConfig.DEFAULT,
            CubicRollback.OFF, true, PacingConfig.DEFAULT);

    public CongestionConfig {
        if (algorithm == null || slowStart == null || rollback == null || pacing == null) {
            throw new IllegalArgumentException("congestion configuration needs a controller, a slow start, a rollback mode "
                    + "and pacing.");
        }
        if (rollback != CubicRollback.OFF && algorithm != CongestionAlgorithm.CUBIC) {
            throw new IllegalArgumentException(ROLLBACK + " " + rollback.optionValue() + " applies only to " + CC
                    + " cubic, not to " + algorithm.optionValue() + "; use " + ROLLBACK + " off.");
        }
    }

    /** Whether the connection paces (any pacer but {@code none}). */
    public boolean paced() {
        return pacing.pacer() != PacerKind.NONE;
    }

    /** HyStart++'s L for this configuration, resolving auto from the pacer. */
    public long effectiveHystartL() {
        return slowStart.effectiveHystartL(paced());
    }

    /**
     * Reads a configuration from option name to value (names with or without the leading {@code --}, as on
     * the command line or in a scenario file). Options not given keep their defaults; keys that are not
     * options of {@link #OPTION_NAMES} are ignored. An invalid value throws {@link IllegalArgumentException}
     * with one sentence naming the option and the valid values.
     */
    public static CongestionConfig fromOptions(Map<String, String> options) {
        CongestionConfig d = DEFAULT;
        String v;
        CongestionAlgorithm algorithm = (v = PacingConfig.get(options, CC)) == null ? d.algorithm
                : CongestionAlgorithm.parse(v);
        SlowStartConfig slowStart = SlowStartConfig.fromOptions(options, algorithm);
        CubicRollback rollback = (v = PacingConfig.get(options, ROLLBACK)) == null ? d.rollback : CubicRollback.parse(v);
        boolean fc = (v = PacingConfig.get(options, FAST_CONVERGENCE)) == null ? d.fastConvergence
                : parseOnOff(FAST_CONVERGENCE, v);
        return new CongestionConfig(algorithm, slowStart, rollback, fc, PacingConfig.fromOptions(options));
    }

    /**
     * The options that reproduce this configuration with {@link #fromOptions}: {@code --slow-start} and the
     * selected rule's parameters (not the older {@code --hystart}, nor other rules' parameters).
     */
    public Map<String, String> toOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CC, algorithm.optionValue());
        m.putAll(slowStart.toOptions());
        m.put(ROLLBACK, rollback.optionValue());
        m.put(FAST_CONVERGENCE, fastConvergence ? "on" : "off");
        m.putAll(pacing.toOptions());
        return m;
    }

    static boolean parseOnOff(String option, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException(option + ": '" + value + "' is not a switch value; valid "
                    + "values are on, off.");
        };
    }
}
