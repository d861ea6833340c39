package org.pacelab.quic.cc;

import static org.pacelab.quic.util.OptionValues.get;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How {@link NewRenoController} and {@link CubicController} leave their initial slow start: the rule and its
 * parameters, with the option names used on the command line, in scenario files and here.
 *
 * @param rule            {@code --slow-start}: the exit rule ({@link SlowStartRule})
 * @param hystartL        {@code --hystart-l} (hystart++): L in segments; 0 means auto: 8 without pacing, infinite
 *                        with a pacer (RFC 9406 §4.3); {@link HyStartPlusPlus#INFINITE_L} is {@code inf}
 * @param cssRounds       {@code --hystart-css-rounds} (hystart++): rounds of Conservative Slow Start before slow
 *                        start ends (RFC 9406 §4.3's CSS_ROUNDS, default 5)
 * @param hystartDetect   {@code --hystart-detect} (hystart): which of Linux HyStart's signals may end slow start
 * @param searchThreshold {@code --search-threshold} (search): the normalized difference between bytes sent one RTT
 *                        earlier and bytes delivered now at which SEARCH leaves slow start
 * @param onsetMinDelay   {@code --onset-delay} (onset, onset-bdp, onset-bdp-queue): the floor of {@link QueueOnset}'s queueing-delay threshold, ns
 */
public record SlowStartConfig(SlowStartRule rule, long hystartL, int cssRounds, HyStart.Detect hystartDetect,
                              double searchThreshold, long onsetMinDelay) {

    public static final String SLOW_START = "--slow-start";
    /** The older switch: {@code on} is {@code --slow-start hystart++}, {@code off} is {@code --slow-start standard}. */
    public static final String HYSTART = "--hystart";
    public static final String HYSTART_L = "--hystart-l";
    public static final String HYSTART_CSS_ROUNDS = "--hystart-css-rounds";
    public static final String HYSTART_DETECT = "--hystart-detect";
    public static final String SEARCH_THRESHOLD = "--search-threshold";
    public static final String ONSET_DELAY = "--onset-delay";

    /** Every option, in documentation order. */
    public static final List<String> OPTION_NAMES = List.of(SLOW_START, HYSTART, HYSTART_L, HYSTART_CSS_ROUNDS,
            HYSTART_DETECT, SEARCH_THRESHOLD, ONSET_DELAY);

    /** The range of {@code --onset-delay}, ns. */
    public static final long MIN_ONSET_DELAY = 100_000L;
    public static final long MAX_ONSET_DELAY = 100_000_000L;

    /** The largest {@code --hystart-css-rounds} accepted. */
    public static final int MAX_CSS_ROUNDS = 100;

    /**
     * The rules' parameters when none is given (auto L, RFC 9406's CSS_ROUNDS, both HyStart signals, SEARCH's
     * threshold, the onset's 1 ms floor); the rule here is a placeholder, {@link #defaults} sets the controller's.
     */
    private static final SlowStartConfig PARAMETERS = new SlowStartConfig(SlowStartRule.HYSTART_PLUS_PLUS, 0,
            HyStartPlusPlus.CSS_ROUNDS, HyStart.Detect.BOTH, Search.THRESH, QueueOnset.DEFAULT_MIN_DELAY);

    public SlowStartConfig {
        if (rule == null || hystartDetect == null) {
            throw new IllegalArgumentException("a slow-start configuration needs a rule and HyStart's signals.");
        }
        if (hystartL < 0) {
            throw new IllegalArgumentException(HYSTART_L + ": must be auto, inf or at least 1 segment, got " + hystartL + ".");
        }
        if (cssRounds < 1 || cssRounds > MAX_CSS_ROUNDS) {
            throw new IllegalArgumentException(HYSTART_CSS_ROUNDS + ": must be 1 to " + MAX_CSS_ROUNDS + ", got "
                    + cssRounds + ".");
        }
        if (!(searchThreshold > 0 && searchThreshold < 1)) {
            throw new IllegalArgumentException(SEARCH_THRESHOLD + ": must be above 0 and below 1, got " + searchThreshold + ".");
        }
        if (onsetMinDelay < MIN_ONSET_DELAY || onsetMinDelay > MAX_ONSET_DELAY) {
            throw new IllegalArgumentException(ONSET_DELAY + ": must be 0.1 ms to 100 ms, got " + onsetMinDelay + " ns.");
        }
    }

    /** The same configuration with another rule. */
    public SlowStartConfig withRule(SlowStartRule r) {
        return new SlowStartConfig(r, hystartL, cssRounds, hystartDetect, searchThreshold, onsetMinDelay);
    }

    /** HyStart++'s L, resolving auto from whether the connection paces. */
    public long effectiveHystartL(boolean paced) {
        if (hystartL > 0) {
            return hystartL;
        }
        return paced ? HyStartPlusPlus.INFINITE_L : HyStartPlusPlus.NON_PACED_L;
    }

    /**
     * The rule's state for one connection.
     *
     * @param paced whether the connection paces (HyStart++'s L, Linux HyStart's ACK-train threshold, the span of
     *              the onset rule's run of samples)
     */
    public SlowStartExit create(boolean paced) {
        return switch (rule) {
            case STANDARD -> new StandardSlowStart();
            case HYSTART_PLUS_PLUS -> new HyStartPlusPlus(effectiveHystartL(paced), cssRounds);
            case HYSTART -> new HyStart(hystartDetect, paced);
            case SEARCH -> new Search(searchThreshold);
            case QUEUE_ONSET -> new QueueOnset(onsetMinDelay, paced);
            case ONSET_BDP -> new OnsetBdp(onsetMinDelay, paced);
            case ONSET_BDP_QUEUE -> new OnsetBdp(onsetMinDelay, paced, true);
        };
    }

    /**
     * Reads the slow-start options (names with or without the leading {@code --}); options not given keep the
     * controller's defaults ({@link #defaults}: its {@link #defaultRule} when no rule is given). An invalid value, a
     * parameter of a rule not selected, or a rule the controller does not take (BBR takes standard and onset)
     * throws {@link IllegalArgumentException} with one sentence naming the option and what is valid.
     */
    public static SlowStartConfig fromOptions(Map<String, String> options, CongestionAlgorithm algorithm) {
        SlowStartConfig d = defaults(algorithm);
        String v;
        SlowStartRule rule = (v = get(options, SLOW_START)) == null ? null : SlowStartRule.parse(v);
        String hystartSwitch = get(options, HYSTART);
        if (algorithm == CongestionAlgorithm.BBR) {
            if (hystartSwitch != null) {
                throw new IllegalArgumentException(HYSTART + " " + hystartSwitch.trim() + " applies only to "
                        + ControllerConfig.CC + " newreno and cubic; " + bbrChoices());
            }
            if (rule != null && !BBR_RULES.contains(rule)) {
                throw new IllegalArgumentException(SLOW_START + " " + rule.optionValue() + " applies only to "
                        + ControllerConfig.CC + " newreno and cubic; " + bbrChoices());
            }
        }
        if (hystartSwitch != null) {
            SlowStartRule mapped = ControllerConfig.parseOnOff(HYSTART, hystartSwitch) ? SlowStartRule.HYSTART_PLUS_PLUS
                    : SlowStartRule.STANDARD;
            if (rule != null && rule != mapped) {
                throw new IllegalArgumentException(HYSTART + " " + hystartSwitch.trim() + " (the older switch for "
                        + SLOW_START + " " + mapped.optionValue() + ") contradicts " + SLOW_START + " " + rule.optionValue()
                        + "; give only " + SLOW_START + ".");
            }
            rule = mapped;
        }
        // a rule's parameter given beside the controller's default rule names that default in its error
        String selected = rule == null ? SLOW_START + " " + d.rule.optionValue() + " (" + ControllerConfig.CC + " "
                + algorithm.optionValue() + "'s default)" : SLOW_START + " " + rule.optionValue();
        if (rule == null) {
            rule = d.rule;
        }
        long l = (v = parameter(options, HYSTART_L, rule, selected, SlowStartRule.HYSTART_PLUS_PLUS)) == null ? d.hystartL
                : parseHystartL(v);
        int css = (v = parameter(options, HYSTART_CSS_ROUNDS, rule, selected, SlowStartRule.HYSTART_PLUS_PLUS)) == null
                ? d.cssRounds : parseCssRounds(v);
        HyStart.Detect detect = (v = parameter(options, HYSTART_DETECT, rule, selected, SlowStartRule.HYSTART)) == null
                ? d.hystartDetect : HyStart.Detect.parse(v);
        double threshold = (v = parameter(options, SEARCH_THRESHOLD, rule, selected, SlowStartRule.SEARCH)) == null
                ? d.searchThreshold : parseSearchThreshold(v);
        long onset = (v = parameter(options, ONSET_DELAY, rule, selected, SlowStartRule.QUEUE_ONSET, SlowStartRule.ONSET_BDP,
                SlowStartRule.ONSET_BDP_QUEUE)) == null
                ? d.onsetMinDelay : parseOnsetDelay(v);
        return new SlowStartConfig(rule, l, css, detect, threshold, onset);
    }

    /** The rules BBR takes: standard (the draft's Startup) and onset (an extra exit from Startup). */
    public static final List<SlowStartRule> BBR_RULES = List.of(SlowStartRule.STANDARD, SlowStartRule.QUEUE_ONSET);

    private static String bbrChoices() {
        return ControllerConfig.CC + " bbr leaves Startup by the draft's full-pipe and loss checks (" + SLOW_START
                + " standard) or also at the queue's onset (" + SLOW_START + " onset).";
    }

    /**
     * The rule a controller leaves slow start by when no {@code --slow-start} (nor {@code --hystart}) is given: the
     * one place that says so. Chosen per controller from the measurements in docs/benchmarks.md, "Slow-start exit
     * rules (issue 15)", summed up in its "The default chosen and why":
     * <ul>
     *   <li>CUBIC: onset-bdp-queue — on quic-steps 4–5 drops per 100 MiB against HyStart++'s 204–223 at the same
     *       goodput; on the 64-point fixed-rate grid the median point equal to HyStart++, six points more than 1 %
     *       above, none more than 0.25 % below on seeds 1-2 since its first cut is taken gradually (1 Gbit/s x 10 ms
     *       x 0.5 BDP: 0.9952 before, 1.0047 since), with a median of 1 drop per run against 202; within noise of it
     *       or above on the LTE traces;</li>
     *   <li>NewReno: HyStart++ (RFC 9406) — onset-bdp-queue costs NewReno up to a third of its goodput at
     *       100 Mbit/s with small buffers (the grid's NewReno paragraph);</li>
     *   <li>BBR: onset (since 2026-12-05; the draft's Startup, {@code --slow-start standard}, before) — on quic-steps
     *       7-36 drops per 100 MiB against the draft's 192-227, at 37.60 against 36.82 Mbit/s; on the grid (64 points
     *       and the LTE traces, seeds 1-5) the median point 1.018 of the draft's goodput, none below 0.99 (lowest
     *       T-Mobile, 0.9952, within the seeds' noise), drops 29,594 against 104,215 on the fixed points.</li>
     * </ul>
     */
    public static SlowStartRule defaultRule(CongestionAlgorithm algorithm) {
        return switch (algorithm) {
            case CUBIC -> SlowStartRule.ONSET_BDP_QUEUE;
            case NEWRENO -> SlowStartRule.HYSTART_PLUS_PLUS;
            case BBR -> SlowStartRule.QUEUE_ONSET;
        };
    }

    /** The defaults for a controller: its {@link #defaultRule}, every rule's parameters at their defaults. */
    public static SlowStartConfig defaults(CongestionAlgorithm algorithm) {
        return PARAMETERS.withRule(defaultRule(algorithm));
    }

    /**
     * The value of a parameter of the {@code owners}, or null; given with another rule it is an error naming the
     * rule as {@code selected} says it.
     */
    private static String parameter(Map<String, String> options, String option, SlowStartRule rule, String selected,
                                    SlowStartRule... owners) {
        String v = get(options, option);
        if (v != null && !List.of(owners).contains(rule)) {
            String names = java.util.Arrays.stream(owners).map(o -> SLOW_START + " " + o.optionValue())
                    .collect(java.util.stream.Collectors.joining(" or "));
            throw new IllegalArgumentException(option + " is a parameter of " + names + ", not of " + selected
                    + "; leave it out or select " + names + ".");
        }
        return v;
    }

    /** The options that reproduce this configuration: the rule and its own parameters. */
    public Map<String, String> toOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(SLOW_START, rule.optionValue());
        switch (rule) {
            case HYSTART_PLUS_PLUS -> {
                m.put(HYSTART_L, hystartL == 0 ? "auto" : hystartL == HyStartPlusPlus.INFINITE_L ? "inf" : Long.toString(hystartL));
                m.put(HYSTART_CSS_ROUNDS, Integer.toString(cssRounds));
            }
            case HYSTART -> m.put(HYSTART_DETECT, hystartDetect.optionValue());
            case SEARCH -> m.put(SEARCH_THRESHOLD, Double.toString(searchThreshold));
            case QUEUE_ONSET, ONSET_BDP, ONSET_BDP_QUEUE -> m.put(ONSET_DELAY, onsetMinDelay % 1_000_000 == 0 ? onsetMinDelay / 1_000_000 + "ms"
                    : onsetMinDelay % 1_000 == 0 ? onsetMinDelay / 1_000 + "us" : onsetMinDelay + "ns");
            case STANDARD -> { }
        }
        return m;
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

    /** A duration: a number with ns, us, ms or s (e.g. 1ms, 500us, 0.5ms), within the option's range. */
    static long parseOnsetDelay(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        long unit = v.endsWith("ns") ? 1 : v.endsWith("us") ? 1_000 : v.endsWith("ms") ? 1_000_000 : v.endsWith("s") ? 1_000_000_000 : 0;
        try {
            if (unit > 0) {
                double n = Double.parseDouble(v.substring(0, v.length() - (unit == 1_000_000_000 ? 1 : 2)).trim());
                long ns = Math.round(n * unit);
                if (ns >= MIN_ONSET_DELAY && ns <= MAX_ONSET_DELAY) {
                    return ns;
                }
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException(ONSET_DELAY + ": '" + value + "' is not a valid delay; give a time from 0.1ms to "
                + "100ms, e.g. 1ms or 500us.");
    }

    static double parseSearchThreshold(String value) {
        String v = value == null ? "" : value.trim();
        try {
            double t = Double.parseDouble(v);
            if (t > 0 && t < 1) {
                return t;
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException(SEARCH_THRESHOLD + ": '" + value + "' is not a valid threshold; give a number "
                + "above 0 and below 1 (draft-chung-ccwg-search-09 uses " + Search.THRESH + ").");
    }
}
