package org.pacelab.quic.pacing;

import static org.pacelab.quic.util.OptionValues.get;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything that decides when packets leave, except the controller: the pacer and the inputs
 * {@link PacingRateCalculator} computes for it. Option names are the same on the command line, in
 * scenario files and in this API.
 *
 * @param pacer                   {@code --pacer}: none, leaky-bucket, interval, token-bucket
 * @param gainSlowStart           {@code --pacing-gain-ss}: rate = gain * cwnd / srtt while the controller is in
 *                                slow start (default 2.0, Linux's tcp_pacing_ss_ratio of 200 %)
 * @param gainCongestionAvoidance {@code --pacing-gain-ca}: the same after slow start (default 1.25, RFC 9002
 *                                §7.7's example N, ngtcp2, quiche, quic-go and quinn)
 * @param quantum                 {@code --quantum}: bytes allowed back-to-back (default auto)
 * @param initialBurst            {@code --initial-burst}: packets sent unpaced when pacing starts (default 10)
 * @param minPacingRate           {@code --min-pacing-rate}: floor of the pacing rate, bytes/s (0 = none)
 * @param maxPacingRate           {@code --max-pacing-rate}: cap of the pacing rate, bytes/s (0 = none; quiche's
 *                                max_pacing_rate)
 * @param unpacedAbove            {@code --unpaced-above}: above this rate, bytes/s, packets are not paced at all
 *                                (0 = always pace)
 */
public record PacingConfig(PacerKind pacer, double gainSlowStart, double gainCongestionAvoidance, Quantum quantum,
                           int initialBurst, long minPacingRate, long maxPacingRate, long unpacedAbove) {

    public static final String PACER = "--pacer";
    public static final String PACING_GAIN_SS = "--pacing-gain-ss";
    public static final String PACING_GAIN_CA = "--pacing-gain-ca";
    public static final String QUANTUM = "--quantum";
    public static final String INITIAL_BURST = "--initial-burst";
    public static final String MIN_PACING_RATE = "--min-pacing-rate";
    public static final String MAX_PACING_RATE = "--max-pacing-rate";
    public static final String UNPACED_ABOVE = "--unpaced-above";

    /** Every option this record reads, in documentation order. */
    public static final List<String> OPTION_NAMES = List.of(PACER, PACING_GAIN_SS, PACING_GAIN_CA, QUANTUM,
            INITIAL_BURST, MIN_PACING_RATE, MAX_PACING_RATE, UNPACED_ABOVE);

    public static final PacingConfig DEFAULT = new PacingConfig(PacerKind.INTERVAL, 2.0, 1.25, Quantum.AUTO, 10, 0, 0, 0);

    public PacingConfig {
        if (pacer == null || quantum == null) {
            throw new IllegalArgumentException("pacing configuration needs a pacer and a quantum.");
        }
        checkGain(PACING_GAIN_SS, gainSlowStart);
        checkGain(PACING_GAIN_CA, gainCongestionAvoidance);
        if (initialBurst < 0) {
            throw new IllegalArgumentException(INITIAL_BURST + ": must be 0 or more packets, got " + initialBurst + ".");
        }
        if (minPacingRate < 0 || maxPacingRate < 0 || unpacedAbove < 0) {
            throw new IllegalArgumentException("pacing rates must not be negative.");
        }
        if (maxPacingRate > 0 && minPacingRate > maxPacingRate) {
            throw new IllegalArgumentException(MIN_PACING_RATE + " (" + minPacingRate + " bytes/s) exceeds "
                    + MAX_PACING_RATE + " (" + maxPacingRate + " bytes/s).");
        }
    }

    /** Whether the connection paces (any pacer but {@code none}). */
    public boolean paced() {
        return pacer != PacerKind.NONE;
    }

    private static void checkGain(String option, double gain) {
        if (!(gain > 0) || Double.isInfinite(gain) || gain > 100) {
            throw new IllegalArgumentException(option + ": must be a number above 0 and at most 100, got " + gain + ".");
        }
    }

    /**
     * Reads the pacing options from a map of option name to value (names with or without the leading
     * {@code --}); options not given keep their defaults, other keys are ignored.
     */
    public static PacingConfig fromOptions(Map<String, String> options) {
        PacingConfig d = DEFAULT;
        String v;
        PacerKind pacer = (v = get(options, PACER)) == null ? d.pacer : PacerKind.parse(v);
        double ss = (v = get(options, PACING_GAIN_SS)) == null ? d.gainSlowStart : parseGain(PACING_GAIN_SS, v);
        double ca = (v = get(options, PACING_GAIN_CA)) == null ? d.gainCongestionAvoidance : parseGain(PACING_GAIN_CA, v);
        Quantum quantum = (v = get(options, QUANTUM)) == null ? d.quantum : Quantum.parse(v);
        int burst = (v = get(options, INITIAL_BURST)) == null ? d.initialBurst : parseCount(INITIAL_BURST, v);
        long min = (v = get(options, MIN_PACING_RATE)) == null ? d.minPacingRate : TcUnits.parseRate(MIN_PACING_RATE, v);
        long max = (v = get(options, MAX_PACING_RATE)) == null ? d.maxPacingRate : TcUnits.parseRate(MAX_PACING_RATE, v);
        long unpaced = (v = get(options, UNPACED_ABOVE)) == null ? d.unpacedAbove : TcUnits.parseRate(UNPACED_ABOVE, v);
        return new PacingConfig(pacer, ss, ca, quantum, burst, min, max, unpaced);
    }

    /** The options that reproduce this configuration with {@link #fromOptions}. */
    public Map<String, String> toOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(PACER, pacer.optionValue());
        m.put(PACING_GAIN_SS, Double.toString(gainSlowStart));
        m.put(PACING_GAIN_CA, Double.toString(gainCongestionAvoidance));
        m.put(QUANTUM, quantum.optionValue());
        m.put(INITIAL_BURST, Integer.toString(initialBurst));
        m.put(MIN_PACING_RATE, TcUnits.formatRate(minPacingRate));
        m.put(MAX_PACING_RATE, TcUnits.formatRate(maxPacingRate));
        m.put(UNPACED_ABOVE, TcUnits.formatRate(unpacedAbove));
        return m;
    }

    static double parseGain(String option, String text) {
        double g;
        try {
            g = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + text + "' is not a number; give a gain above 0 and at "
                    + "most 100, e.g. 1.25.", e);
        }
        checkGain(option, g);
        return g;
    }

    static int parseCount(String option, String text) {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException(option + ": '" + text + "' is not a packet count; give a whole number "
                + "of 0 or more, e.g. 10.");
    }
}
