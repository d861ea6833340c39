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
 * @param hystart         {@code --hystart}: on, off — HyStart++ in the initial slow start of newreno and cubic
 *                        (default on, as RFC 9438 §4.10 recommends)
 * @param hystartL        {@code --hystart-l}: HyStart++'s L in segments; 0 means auto: 8 without pacing,
 *                        infinite with a pacer (RFC 9406 §4.3); {@link HyStartPlusPlus#INFINITE_L} is {@code inf}
 * @param rollback        {@code --rollback}: off, rfc9438, quiche — CUBIC's undo of spurious reductions
 *                        (default off)
 * @param fastConvergence {@code --fast-convergence}: on, off — CUBIC fast convergence (default on, RFC 9438 §4.7)
 * @param pacing          the pacer and its inputs ({@link PacingConfig})
 */
public record CongestionConfig(CongestionAlgorithm algorithm, boolean hystart, long hystartL, CubicRollback rollback,
                               boolean fastConvergence, PacingConfig pacing) {

    public static final String CC = "--cc";
    public static final String HYSTART = "--hystart";
    public static final String HYSTART_L = "--hystart-l";
    public static final String ROLLBACK = "--rollback";
    public static final String FAST_CONVERGENCE = "--fast-convergence";

    /** Every option of this configuration, the pacing options included, in documentation order. */
    public static final List<String> OPTION_NAMES;

    static {
        List<String> names = new ArrayList<>(List.of(CC, HYSTART, HYSTART_L, ROLLBACK, FAST_CONVERGENCE));
        names.addAll(PacingConfig.OPTION_NAMES);
        OPTION_NAMES = List.copyOf(names);
    }

    public static final CongestionConfig DEFAULT = new CongestionConfig(CongestionAlgorithm.CUBIC, true, 0,
            CubicRollback.OFF, true, PacingConfig.DEFAULT);

    public CongestionConfig {
        if (algorithm == null || rollback == null || pacing == null) {
            throw new IllegalArgumentException("congestion configuration needs a controller, a rollback mode and pacing.");
        }
        if (hystartL < 0) {
            throw new IllegalArgumentException(HYSTART_L + ": must be auto, inf or at least 1 segment, got " + hystartL + ".");
        }
        if (rollback != CubicRollback.OFF && algorithm != CongestionAlgorithm.CUBIC) {
            throw new IllegalArgumentException(ROLLBACK + " " + rollback.optionValue() + " applies only to " + CC
                    + " cubic, not to " + algorithm.optionValue() + "; use " + ROLLBACK + " off.");
        }
    }

    /** HyStart++'s L for this configuration, resolving auto from the pacer. */
    public long effectiveHystartL() {
        if (hystartL > 0) {
            return hystartL;
        }
        return pacing.pacer() == PacerKind.NONE ? HyStartPlusPlus.NON_PACED_L : HyStartPlusPlus.INFINITE_L;
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
        boolean hystart = (v = PacingConfig.get(options, HYSTART)) == null ? d.hystart : parseOnOff(HYSTART, v);
        long l = (v = PacingConfig.get(options, HYSTART_L)) == null ? d.hystartL : parseHystartL(v);
        CubicRollback rollback = (v = PacingConfig.get(options, ROLLBACK)) == null ? d.rollback : CubicRollback.parse(v);
        boolean fc = (v = PacingConfig.get(options, FAST_CONVERGENCE)) == null ? d.fastConvergence
                : parseOnOff(FAST_CONVERGENCE, v);
        return new CongestionConfig(algorithm, hystart, l, rollback, fc, PacingConfig.fromOptions(options));
    }

    /** The options that reproduce this configuration with {@link #fromOptions}. */
    public Map<String, String> toOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CC, algorithm.optionValue());
        m.put(HYSTART, hystart ? "on" : "off");
        m.put(HYSTART_L, hystartL == 0 ? "auto" : hystartL == HyStartPlusPlus.INFINITE_L ? "inf" : Long.toString(hystartL));
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

    static long parseHystartL(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("auto")) {
            return 0;
        }
        if (v.equals("inf") || v.equals("infinity")) {
            return HyStartPlusPlus.INFINITE_L;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException(HYSTART_L + ": '" + value + "' is not a valid L; valid values are auto, "
                + "inf or a whole number of segments of at least 1.");
    }
}
