package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The slow-start rule is a property of the controller: without {@code --slow-start} (or {@code --hystart}) CUBIC
 * leaves by onset-bdp-queue, NewReno by HyStart++ and BBR by the onset (docs/benchmarks.md, "The default
 * chosen and why"); a rule given explicitly wins, and what is recorded is the rule used, never "default".
 */
class SlowStartDefaultTest {

    private static ControllerConfig config(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return ControllerConfig.fromOptions(m);
    }

    private static Object qlogRule(ControllerConfig c) {
        return CongestionControllers.create(c, true, 1200, new java.util.SplittableRandom(1), inFlight -> { })
                .qlogState().get("slow_start_rule");
    }

    @Test
    void eachControllerHasItsOwnDefaultRule() {
        assertEquals(SlowStartRule.ONSET_BDP_QUEUE, SlowStartConfig.defaultRule(CongestionAlgorithm.CUBIC));
        assertEquals(SlowStartRule.HYSTART_PLUS_PLUS, SlowStartConfig.defaultRule(CongestionAlgorithm.NEWRENO));
        assertEquals(SlowStartRule.QUEUE_ONSET, SlowStartConfig.defaultRule(CongestionAlgorithm.BBR));
        // BBR's default is one of the rules BBR takes
        assertTrue(SlowStartConfig.BBR_RULES.contains(SlowStartConfig.defaultRule(CongestionAlgorithm.BBR)));
        for (CongestionAlgorithm a : CongestionAlgorithm.values()) {
            ControllerConfig c = config("--cc", a.optionValue());
            assertEquals(SlowStartConfig.defaultRule(a), c.slowStart().rule(), a.optionValue());
            assertEquals(SlowStartConfig.defaults(a), c.slowStart(), a.optionValue());
            // what records the run names the rule used
            assertEquals(SlowStartConfig.defaultRule(a).optionValue(), c.toOptions().get(SlowStartConfig.SLOW_START),
                    a.optionValue());
            assertEquals(c, ControllerConfig.fromOptions(c.toOptions()), a.optionValue() + " round-trips");
        }
        // without --cc: CUBIC, and the controller built runs the rule
        assertEquals(SlowStartRule.ONSET_BDP_QUEUE, config().slowStart().rule());
        assertEquals(ControllerConfig.DEFAULT, config());
        assertEquals("onset-bdp-queue", qlogRule(config()));
        assertEquals("hystart++", qlogRule(config("--cc", "newreno")));
        // BBR's default, the onset, is logged; the draft's Startup logs no rule of its own
        assertEquals("onset", qlogRule(config("--cc", "bbr")));
        assertEquals(null, qlogRule(config("--cc", "bbr", "--slow-start", "standard")));
    }

    @Test
    void anExplicitRuleWins() {
        for (CongestionAlgorithm a : List.of(CongestionAlgorithm.CUBIC, CongestionAlgorithm.NEWRENO)) {
            for (SlowStartRule r : SlowStartRule.values()) {
                ControllerConfig c = config("--cc", a.optionValue(), "--slow-start", r.optionValue());
                assertEquals(r, c.slowStart().rule(), a.optionValue() + " " + r.optionValue());
                assertEquals(r.optionValue(), qlogRule(c), a.optionValue() + " " + r.optionValue());
            }
            // the older switch too
            assertEquals(SlowStartRule.HYSTART_PLUS_PLUS, config("--cc", a.optionValue(), "--hystart", "on").slowStart().rule());
            assertEquals(SlowStartRule.STANDARD, config("--cc", a.optionValue(), "--hystart", "off").slowStart().rule());
        }
        for (SlowStartRule r : SlowStartConfig.BBR_RULES) {
            assertEquals(r, config("--cc", "bbr", "--slow-start", r.optionValue()).slowStart().rule());
        }
        assertEquals("onset", qlogRule(config("--cc", "bbr", "--slow-start", "onset")));
    }

    @Test
    void aDefaultRulesParametersNeedNoSlowStartOption() {
        // --onset-delay belongs to CUBIC's default rule, HyStart++'s options to NewReno's
        assertEquals(3_000_000, config("--onset-delay", "3ms").slowStart().onsetMinDelay());
        assertEquals(16, config("--cc", "newreno", "--hystart-l", "16").slowStart().hystartL());
        // another rule's parameter beside a default names the default as such (one sentence)
        assertEquals("--onset-delay is a parameter of --slow-start onset or --slow-start onset-bdp or --slow-start "
                + "onset-bdp-queue, not of --slow-start hystart++ (--cc newreno's default); leave it out or select "
                + "--slow-start onset or --slow-start onset-bdp or --slow-start onset-bdp-queue.",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                        () -> config("--cc", "newreno", "--onset-delay", "3ms")).getMessage());
    }
}
