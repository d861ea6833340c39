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
 * @param hystartCssRounds {@code --hystart-css-rounds}: rounds of Conservative Slow Start before HyStart++ leaves
 *                        slow start (default 5, RFC 9406 §4.3's CSS_ROUNDS; shallow buffers may want fewer)
 * @param rollback        {@code --rollback}: off, rfc9438, quiche — CUBIC's undo of spurious reductions
 *                        (default off)
 * @param fastConvergence {@code --fast-convergence}: on, off — CUBIC fast convergence (default on, RFC 9438 §4.7)
 * @param pacing          the pacer and its inputs ({@link PacingConfig})
 */
public record CongestionConfig(CongestionAlgorithm algorithm, boolean hystart, long hystartL, int hystartCssRounds,
                               CubicRollback rollback, boolean fastConvergence, PacingConfig pacing) {

    public static final String CC = "--cc";
    public static final String HYSTART = "--hystart";
    public static final String HYSTART_L = "--hystart-l";
    public static final String HYSTART_CSS_ROUNDS = "--hystart-css-rounds";
    public static final String ROLLBACK = "--rollback";
    public static final String FAST_CONVERGENCE = "--fast-convergence";

    /** Every option of this configuration, the pacing options included, in documentation order. */
    public static final List<String> OPTION_NAMES;

    static {
        List<String> names = new ArrayList<>(List.of(CC, HYSTART, HYSTART_L, HYSTART_CSS_ROUNDS, ROLLBACK, FAST_CONVERGENCE));
        names.addAll(PacingConfig.OPTION_NAMES);
        OPTION_NAMES = List.copyOf(names);
    }

    /** The largest {@code --hystart-css-rounds} accepted. */
    public static final int MAX_CSS_ROUNDS = 100;

    public static final CongestionConfig DEFAULT = new CongestionConfig(CongestionAlgorithm.CUBIC, true, 0,
            HyStartPlusPlus.CSS_ROUNDS, CubicRollback.OFF, true, PacingConfig.DEFAULT);

    public CongestionConfig {
        if (algorithm == null || rollback == null || pacing == null) {
            throw new IllegalArgumentException("congestion configuration needs a controller, a rollback mode and pacing.");
        }
        if (hystartL < 0) {
            throw new IllegalArgumentException(HYSTART_L + ": must be auto, inf or at least 1 segment, got " + hystartL + ".");
        }
        if (hystartCssRounds < 1 || hystartCssRounds > MAX_CSS_ROUNDS) {
            throw new IllegalArgumentException(HYSTART_CSS_ROUNDS + ": must be 1 to " + MAX_CSS_ROUNDS + ", got "
                    + hystartCssRounds + ".");
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
        int cssRounds = (v = PacingConfig.get(options, HYSTART_CSS_ROUNDS)) == null ? d.hystartCssRounds
                : parseCssRounds(v);
        CubicRollback rollback = (v = PacingConfig.get(options, ROLLBACK)) == null ? d.rollback : CubicRollback.parse(v);
        boolean fc = (v = PacingConfig.get(options, FAST_CONVERGENCE)) == null ? d.fastConvergence
                : parseOnOff(FAST_CONVERGENCE, v);
        return new CongestionConfig(algorithm, hystart, l, cssRounds, rollback, fc, PacingConfig.fromOptions(options));
    }

    /** The options that reproduce this configuration with {@link #fromOptions}. */
    public Map<String, String> toOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CC, algorithm.optionValue());
        m.put(HYSTART, hystart ? "on" : "off");
        m.put(HYSTART_L, hystartL == 0 ? "auto" : hystartL == HyStartPlusPlus.INFINITE_L ? "inf" : Long.toString(hystartL));
        m.put(HYSTART_CSS_ROUNDS, Integer.toString(hystartCssRounds));
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

    static int parseCssRounds(String value) {
        String v = value == null ? "" : value.trim();
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= MAX_CSS_ROUNDS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException(HYSTART_CSS_ROUNDS + ": '" + value + "' is not a number of rounds; valid values "
                + "are whole numbers from 1 to " + MAX_CSS_ROUNDS + " (RFC 9406 recommends 5).");
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
