package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.pacing.IntervalPacer;
import org.pacelab.quic.pacing.LeakyBucketPacer;
import org.pacelab.quic.pacing.NoPacer;
import org.pacelab.quic.pacing.PacerKind;
import org.pacelab.quic.pacing.PacingConfig;
import org.pacelab.quic.pacing.Quantum;
import org.pacelab.quic.pacing.TcUnits;
import org.pacelab.quic.pacing.TokenBucketPacer;
import org.pacelab.quic.recovery.CongestionSetup;

class CongestionConfigTest {

    private static String error(Map<String, String> options) {
        return assertThrows(IllegalArgumentException.class, () -> CongestionConfig.fromOptions(options)).getMessage();
    }

    @Test
    void defaults() {
        CongestionConfig c = CongestionConfig.fromOptions(Map.of());
        assertEquals(CongestionConfig.DEFAULT, c);
        assertEquals(CongestionAlgorithm.CUBIC, c.algorithm());
        assertEquals(SlowStartRule.HYSTART_PLUS_PLUS, c.slowStart().rule());
        assertEquals(CubicRollback.OFF, c.rollback());
        assertEquals(PacerKind.INTERVAL, c.pacing().pacer());
        assertEquals(2.0, c.pacing().gainSlowStart());
        assertEquals(1.25, c.pacing().gainCongestionAvoidance());
        assertSame(Quantum.AUTO, c.pacing().quantum());
        assertEquals(10, c.pacing().initialBurst());
        assertEquals(HyStartPlusPlus.INFINITE_L, c.effectiveHystartL(), "paced: L = infinity");
        assertEquals(HyStartPlusPlus.CSS_ROUNDS, c.slowStart().cssRounds());
    }

    @Test
    void readsEveryOptionWithOrWithoutDashes() {
        CongestionConfig c = CongestionConfig.fromOptions(Map.ofEntries(
                Map.entry("--cc", "cubic"), Map.entry("hystart", "on"), Map.entry("--hystart-l", "16"),
                Map.entry("--hystart-css-rounds", "2"), Map.entry("--rollback", "quiche"), Map.entry("--fast-convergence", "off"),
                Map.entry("--pacer", "leaky-bucket"), Map.entry("--pacing-gain-ss", "1.5"),
                Map.entry("pacing-gain-ca", "1.1"), Map.entry("--quantum", "2p"), Map.entry("--initial-burst", "0"),
                Map.entry("--min-pacing-rate", "1mbit"), Map.entry("--max-pacing-rate", "5mbps"),
                Map.entry("--unpaced-above", "10gbit"), Map.entry("--send", "hybrid")));
        assertEquals(SlowStartRule.HYSTART_PLUS_PLUS, c.slowStart().rule());
        assertEquals(16, c.slowStart().hystartL());
        assertEquals(2, c.slowStart().cssRounds());
        assertEquals(CubicRollback.QUICHE, c.rollback());
        assertFalse(c.fastConvergence());
        PacingConfig p = c.pacing();
        assertEquals(PacerKind.LEAKY_BUCKET, p.pacer());
        assertEquals(1.5, p.gainSlowStart());
        assertEquals(1.1, p.gainCongestionAvoidance());
        assertEquals(new Quantum.Fixed(new TcUnits.Size(2, true)), p.quantum());
        assertEquals(0, p.initialBurst());
        assertEquals(125_000, p.minPacingRate());
        assertEquals(5_000_000, p.maxPacingRate());
        assertEquals(1_250_000_000L, p.unpacedAbove());
        assertEquals(c, CongestionConfig.fromOptions(c.toOptions()), "toOptions round-trips");
        // --slow-start with hystart++'s two parameters; not the older --hystart nor the other rules' parameters
        assertEquals(CongestionConfig.OPTION_NAMES.size() - 4, c.toOptions().size());
        assertEquals("hystart++", c.toOptions().get("--slow-start"));
    }

    @Test
    void invalidValuesNameTheOptionAndTheValidChoices() {
        assertEquals("--cc: 'vegas' is not a congestion controller; valid values are newreno, cubic, bbr.",
                error(Map.of("--cc", "vegas")));
        assertEquals("--pacer: 'fq' is not a pacer; valid values are none, leaky-bucket, interval, token-bucket.",
                error(Map.of("--pacer", "fq")));
        assertEquals("--hystart: 'yes' is not a switch value; valid values are on, off.",
                error(Map.of("--hystart", "yes")));
        assertEquals("--rollback: 'undo' is not a rollback mode; valid values are off, rfc9438, quiche.",
                error(Map.of("--rollback", "undo")));
        assertEquals("--rollback quiche applies only to --cc cubic, not to newreno; use --rollback off.",
                error(Map.of("--cc", "newreno", "--rollback", "quiche")));
        assertEquals("--hystart-l: '0' is not a valid L; valid values are auto, inf or a whole number of segments "
                + "of at least 1.", error(Map.of("--hystart-l", "0")));
        assertEquals("--hystart-css-rounds: '0' is not a number of rounds; valid values are whole numbers from 1 to 100 "
                + "(RFC 9406 recommends 5).", error(Map.of("--hystart-css-rounds", "0")));
        assertEquals("--hystart-css-rounds: 'five' is not a number of rounds; valid values are whole numbers from 1 to "
                + "100 (RFC 9406 recommends 5).", error(Map.of("hystart-css-rounds", "five")));
        assertEquals("--pacing-gain-ca: 'fast' is not a number; give a gain above 0 and at most 100, e.g. 1.25.",
                error(Map.of("--pacing-gain-ca", "fast")));
        assertEquals("--pacing-gain-ss: must be a number above 0 and at most 100, got -2.0.",
                error(Map.of("--pacing-gain-ss", "-2")));
        assertEquals("--quantum: 'lots' is not a quantum; write auto, bytes (2400, 2400b), KiB (16k) or packets (2p).",
                error(Map.of("--quantum", "lots")));
        assertEquals("--initial-burst: '-1' is not a packet count; give a whole number of 0 or more, e.g. 10.",
                error(Map.of("--initial-burst", "-1")));
        assertTrue(error(Map.of("--min-pacing-rate", "40furlongs")).startsWith(
                "--min-pacing-rate: '40furlongs' has an unknown rate unit 'furlongs'; valid units are bit, kbit"));
        assertEquals("--min-pacing-rate (5000000 bytes/s) exceeds --max-pacing-rate (1000000 bytes/s).",
                error(Map.of("--min-pacing-rate", "5mbps", "--max-pacing-rate", "1mbps")));
    }

    @Test
    void slowStartRulesAndTheOlderHystartSwitch() {
        for (SlowStartRule r : SlowStartRule.values()) {
            CongestionConfig c = CongestionConfig.fromOptions(Map.of("--slow-start", r.optionValue()));
            assertEquals(r, c.slowStart().rule());
            assertEquals(c, CongestionConfig.fromOptions(c.toOptions()), r + " round-trips");
        }
        assertEquals(SlowStartRule.STANDARD, CongestionConfig.fromOptions(Map.of("--hystart", "off")).slowStart().rule());
        assertEquals(SlowStartRule.HYSTART_PLUS_PLUS, CongestionConfig.fromOptions(Map.of("--hystart", "on")).slowStart().rule());
        // consistent combinations are accepted
        assertEquals(SlowStartRule.STANDARD, CongestionConfig.fromOptions(
                Map.of("--hystart", "off", "--slow-start", "standard")).slowStart().rule());
        CongestionConfig linux = CongestionConfig.fromOptions(Map.of("--slow-start", "hystart", "--hystart-detect", "train",
                "--cc", "newreno"));
        assertEquals(HyStart.Detect.TRAIN, linux.slowStart().hystartDetect());
        assertEquals(0.4, CongestionConfig.fromOptions(Map.of("slow-start", "search", "search-threshold", "0.4"))
                .slowStart().searchThreshold());
        // the factory hands each controller its rule
        CongestionSetup s = CongestionSetup.create(CongestionConfig.fromOptions(Map.of("--slow-start", "search")), 1200);
        assertEquals("search", ((CubicController) s.controller()).qlogState().get("slow_start_rule"));
        CongestionSetup h = CongestionSetup.create(CongestionConfig.fromOptions(
                Map.of("--cc", "newreno", "--slow-start", "hystart")), 1200);
        assertEquals("hystart", h.controller().qlogState().get("slow_start_rule"));
    }

    @Test
    void slowStartErrorsAreOneSentence() {
        assertEquals("--slow-start: 'hybla' is not a slow-start rule; valid values are standard, hystart++, hystart, search, "
                + "onset, onset-bdp.", error(Map.of("--slow-start", "hybla")));
        assertEquals("--slow-start onset-bdp applies only to --cc newreno and cubic; --cc bbr leaves Startup by the draft's "
                + "full-pipe and loss checks (--slow-start standard) or also at the queue's onset (--slow-start onset).",
                error(Map.of("--cc", "bbr", "--slow-start", "onset-bdp")));
        assertEquals("--onset-delay: '0.05ms' is not a valid delay; give a time from 0.1ms to 100ms, e.g. 1ms or 500us.",
                error(Map.of("--slow-start", "onset-bdp", "--onset-delay", "0.05ms")));
        assertEquals("--onset-delay is a parameter of --slow-start onset or --slow-start onset-bdp, not of --slow-start "
                + "search; leave it out or select --slow-start onset or --slow-start onset-bdp.",
                error(Map.of("--slow-start", "search", "--onset-delay", "2ms")));
        CongestionConfig ob = CongestionConfig.fromOptions(Map.of("--slow-start", "onset-bdp", "--onset-delay", "3ms"));
        assertEquals(SlowStartRule.ONSET_BDP, ob.slowStart().rule());
        assertEquals(Map.of("--slow-start", "onset-bdp", "--onset-delay", "3ms"), ob.slowStart().toOptions());
        assertEquals("onset-bdp", CongestionSetup.create(ob, 1200).controller()
                .qlogState().get("slow_start_rule"));
        assertEquals("--slow-start search applies only to --cc newreno and cubic; --cc bbr leaves Startup by the draft's "
                + "full-pipe and loss checks (--slow-start standard) or also at the queue's onset (--slow-start onset).",
                error(Map.of("--cc", "bbr", "--slow-start", "search")));
        assertEquals("--hystart on applies only to --cc newreno and cubic; --cc bbr leaves Startup by the draft's "
                + "full-pipe and loss checks (--slow-start standard) or also at the queue's onset (--slow-start onset).",
                error(Map.of("--cc", "bbr", "--hystart", "on")));
        assertEquals("--onset-delay: '5' is not a valid delay; give a time from 0.1ms to 100ms, e.g. 1ms or 500us.",
                error(Map.of("--slow-start", "onset", "--onset-delay", "5")));
        assertEquals("--onset-delay: '200ms' is not a valid delay; give a time from 0.1ms to 100ms, e.g. 1ms or 500us.",
                error(Map.of("--slow-start", "onset", "--onset-delay", "200ms")));
        assertEquals("--hystart off (the older switch for --slow-start standard) contradicts --slow-start search; give "
                + "only --slow-start.", error(Map.of("--hystart", "off", "--slow-start", "search")));
        assertEquals("--search-threshold: '1.5' is not a valid threshold; give a number above 0 and below 1 "
                + "(draft-chung-ccwg-search-09 uses 0.26).", error(Map.of("--slow-start", "search", "--search-threshold", "1.5")));
        assertEquals("--search-threshold: '0' is not a valid threshold; give a number above 0 and below 1 "
                + "(draft-chung-ccwg-search-09 uses 0.26).", error(Map.of("--slow-start", "search", "--search-threshold", "0")));
        assertEquals("--hystart-detect: 'ack' is not a HyStart signal; valid values are train, delay, both.",
                error(Map.of("--slow-start", "hystart", "--hystart-detect", "ack")));
        assertEquals("--search-threshold is a parameter of --slow-start search, not of --slow-start hystart++; leave it "
                + "out or select --slow-start search.", error(Map.of("--search-threshold", "0.3")));
        assertEquals("--hystart-css-rounds is a parameter of --slow-start hystart++, not of --slow-start standard; leave "
                + "it out or select --slow-start hystart++.", error(Map.of("--hystart", "off", "--hystart-css-rounds", "3")));
        // BBR takes standard (the draft's Startup) and onset, and round-trips either
        CongestionConfig bbr = CongestionConfig.fromOptions(Map.of("--cc", "bbr"));
        assertEquals(SlowStartConfig.BBR_DEFAULT_RULE, bbr.slowStart().rule());
        assertEquals(bbr, CongestionConfig.fromOptions(bbr.toOptions()));
        CongestionConfig onset = CongestionConfig.fromOptions(Map.of("--cc", "bbr", "--slow-start", "onset", "--onset-delay", "2ms"));
        assertEquals(2_000_000, onset.slowStart().onsetMinDelay());
        assertEquals("2ms", onset.toOptions().get("--onset-delay"));
        assertEquals(onset, CongestionConfig.fromOptions(onset.toOptions()));
        assertEquals(500_000, CongestionConfig.fromOptions(Map.of("--slow-start", "onset", "--onset-delay", "0.5ms"))
                .slowStart().onsetMinDelay());
    }

    @Test
    void tcUnits() {
        assertEquals(5_000_000, TcUnits.parseRate("r", "40mbit"));
        assertEquals(5_000_000, TcUnits.parseRate("r", "40Mbit"));
        assertEquals(5_000_000, TcUnits.parseRate("r", "5mbps"));
        assertEquals(125, TcUnits.parseRate("r", "1000"), "a bare number is bit/s, as in tc");
        assertEquals(128, TcUnits.parseRate("r", "1kibit"));
        assertEquals(1_500_000, TcUnits.parseRate("r", "1.5mbps"));
        assertEquals(0, TcUnits.parseRate("r", "0"));
        assertEquals(new TcUnits.Size(65_536, false), TcUnits.parseSize("s", "64kb"));
        assertEquals(new TcUnits.Size(65_536, false), TcUnits.parseSize("s", "64KiB"));
        assertEquals(new TcUnits.Size(1200, false), TcUnits.parseSize("s", "1200"));
        assertEquals(new TcUnits.Size(143, true), TcUnits.parseSize("s", "143p"));
        assertEquals(143 * 1200L, TcUnits.parseSize("s", "143p").bytes(1200));
        assertEquals(100L * 1024 * 1024, TcUnits.parseSize("s", "100MiB").value());
        assertThrows(IllegalArgumentException.class, () -> TcUnits.parseSize("s", "1.5k"));
        assertThrows(IllegalArgumentException.class, () -> TcUnits.parseSize("s", "12 parsecs"));
        assertThrows(IllegalArgumentException.class, () -> TcUnits.parseRate("r", ""));
    }

    @Test
    void factoryBuildsTheConfiguredControllerAndPacer() {
        int mds = 1200;
        CongestionSetup reno = CongestionSetup.create(CongestionConfig.fromOptions(
                Map.of("--cc", "newreno", "--pacer", "none")), mds);
        assertInstanceOf(NewRenoController.class, reno.controller());
        assertInstanceOf(NoPacer.class, reno.pacer());
        assertEquals(HyStartPlusPlus.NON_PACED_L, reno.config().effectiveHystartL(), "unpaced: L = 8");

        CongestionSetup cubic = CongestionSetup.create(CongestionConfig.fromOptions(
                Map.of("--rollback", "rfc9438", "--pacer", "token-bucket")), mds);
        assertEquals(CubicRollback.RFC9438, assertInstanceOf(CubicController.class, cubic.controller()).rollbackMode());
        assertInstanceOf(TokenBucketPacer.class, cubic.pacer());

        CongestionSetup bbr = CongestionSetup.create(CongestionConfig.fromOptions(
                Map.of("--cc", "bbr", "--pacer", "leaky-bucket")), mds);
        assertInstanceOf(BbrV3Controller.class, bbr.controller());
        assertInstanceOf(LeakyBucketPacer.class, bbr.pacer());
        assertInstanceOf(IntervalPacer.class, CongestionSetup.create(CongestionConfig.DEFAULT, mds).pacer());

        assertEquals("maximum datagram size must be at least 1200 bytes (RFC 9000 §14), got 1000.",
                assertThrows(IllegalArgumentException.class,
                        () -> CongestionSetup.create(CongestionConfig.DEFAULT, 1000)).getMessage());
        assertNull(null);
    }
}
