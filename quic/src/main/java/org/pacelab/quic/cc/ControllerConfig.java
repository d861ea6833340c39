package org.pacelab.quic.cc;

import static org.pacelab.quic.util.OptionValues.get;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The congestion controller's configuration, with the option names used on {@code pacelab server}/{@code client}, in
 * scenario files and here. The pacer's options are {@code pacing.PacingConfig}'s; the connection's
 * {@code conn.CongestionConfig} bundles the two, so that the controllers and the pacers know nothing of each other.
 *
 * @param algorithm       {@code --cc}: newreno, cubic, bbr (default cubic)
 * @param slowStart       how the controller leaves its initial slow start ({@link SlowStartConfig}: {@code
 *                        --slow-start} and its parameters, and the older {@code --hystart on|off}); without them
 *                        the controller's own default ({@link SlowStartConfig#defaultRule})
 * @param rollback        {@code --rollback}: off, rfc9438, quiche — CUBIC's undo of spurious reductions
 *                        (default off)
 * @param fastConvergence {@code --fast-convergence}: on, off — CUBIC fast convergence (default on, RFC 9438 §4.7)
 */
public record ControllerConfig(CongestionAlgorithm algorithm, SlowStartConfig slowStart, CubicRollback rollback,
                               boolean fastConvergence) {

    public static final String CC = "--cc";
    public static final String ROLLBACK = "--rollback";
    public static final String FAST_CONVERGENCE = "--fast-convergence";

    /** Every option of this configuration, the slow-start options included, in documentation order. */
    public static final List<String> OPTION_NAMES;

    static {
        List<String> names = new ArrayList<>(List.of(CC));
        names.addAll(SlowStartConfig.OPTION_NAMES);
        names.addAll(List.of(ROLLBACK, FAST_CONVERGENCE));
        OPTION_NAMES = List.copyOf(names);
    }

    /** CUBIC with its default slow start ({@link SlowStartConfig#defaultRule}). */
    public static final ControllerConfig DEFAULT = new ControllerConfig(CongestionAlgorithm.CUBIC,
            SlowStartConfig.defaults(CongestionAlgorithm.CUBIC), CubicRollback.OFF, true);

    public ControllerConfig {
        if (algorithm == null || slowStart == null || rollback == null) {
            throw new IllegalArgumentException("a controller configuration needs a controller, a slow start and a "
                    + "rollback mode.");
        }
        if (rollback != CubicRollback.OFF && algorithm != CongestionAlgorithm.CUBIC) {
            throw new IllegalArgumentException(ROLLBACK + " " + rollback.optionValue() + " applies only to " + CC
                    + " cubic, not to " + algorithm.optionValue() + "; use " + ROLLBACK + " off.");
        }
    }

    /**
     * Reads a configuration from option name to value (names with or without the leading {@code --}, as on
     * the command line or in a scenario file). Options not given keep their defaults; keys that are not
     * options of {@link #OPTION_NAMES} are ignored. An invalid value throws {@link IllegalArgumentException}
     * with one sentence naming the option and the valid values.
     */
    public static ControllerConfig fromOptions(Map<String, String> options) {
        ControllerConfig d = DEFAULT;
        String v;
        CongestionAlgorithm algorithm = (v = get(options, CC)) == null ? d.algorithm : CongestionAlgorithm.parse(v);
        SlowStartConfig slowStart = SlowStartConfig.fromOptions(options, algorithm);
        CubicRollback rollback = (v = get(options, ROLLBACK)) == null ? d.rollback : CubicRollback.parse(v);
        boolean fc = (v = get(options, FAST_CONVERGENCE)) == null ? d.fastConvergence
                : parseOnOff(FAST_CONVERGENCE, v);
        return new ControllerConfig(algorithm, slowStart, rollback, fc);
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
