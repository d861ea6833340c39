package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.BbrV3Controller;
import org.pacelab.quic.cc.CongestionAlgorithm;
import org.pacelab.quic.cc.ControllerConfig;
import org.pacelab.quic.cc.CubicController;
import org.pacelab.quic.cc.CubicRollback;
import org.pacelab.quic.cc.HyStart;
import org.pacelab.quic.cc.HyStartPlusPlus;
import org.pacelab.quic.cc.NewRenoController;
import org.pacelab.quic.cc.SlowStartConfig;
import org.pacelab.quic.cc.SlowStartRule;
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

    private static CongestionSetup setup(CongestionConfig c, int maxDatagramSize) {
        return CongestionSetup.create(c.controller(), c.pacing(), maxDatagramSize);
    }

    private static String error(Map<String, String> options) {
        return assertThrows(IllegalArgumentException.class, () -> CongestionConfig.fromOptions(options)).getMessage();
    }

    @Test
    void defaults() {
        CongestionConfig c = CongestionConfig.fromOptions(Map.of());
        assertEquals(CongestionConfig.DEFAULT, c);
        assertEquals(CongestionAlgorithm.CUBIC, c.controller().algorithm());
        // CUBIC's default rule (SlowStartConfig.defaultRule; SlowStartDefaultTest covers every controller)
        assertEquals(SlowStartRule.ONSET_BDP_QUEUE, c.controller().slowStart().rule());
        assertEquals(CubicRollback.OFF, c.controller().rollback());
        assertEquals(PacerKind.INTERVAL, c.pacing().pacer());
        assertEquals(2.0, c.pacing().gainSlowStart());
        assertEquals(1.25, c.pacing().gainCongestionAvoidance());
        assertSame(Quantum.AUTO, c.pacing().quantum());
        assertEquals(10, c.pacing().initialBurst());
        assertEquals("onset-bdp-queue", setup(c, 1200).controller().qlogState().get("slow_start_rule"));
        // HyStart++'s parameters keep their defaults for a rule chosen without them; as CongestionSetup builds it:
        // the rule created with whether the pacer paces
        CongestionConfig h = CongestionConfig.fromOptions(Map.of("--slow-start", "hystart++"));
        assertEquals(HyStartPlusPlus.INFINITE_L, assertInstanceOf(HyStartPlusPlus.class,
                h.controller().slowStart().create(h.pacing().paced())).limitSegments(), "paced: L = infinity");
        assertEquals(HyStartPlusPlus.CSS_ROUNDS, h.controller().slowStart().cssRounds());
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
        assertEquals(SlowStartRule.HYSTART_PLUS_PLUS, c.controller().slowStart().rule());
        assertEquals(16, c.controller().slowStart().hystartL());
        assertEquals(2, c.controller().slowStart().cssRounds());
        assertEquals(CubicRollback.QUICHE, c.controller().rollback());
        assertFalse(c.controller().fastConvergence());
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
                + "of at least 1.", error(Map.of("--slow-start", "hystart++", "--hystart-l", "0")));
        assertEquals("--hystart-css-rounds: '0' is not a number of rounds; valid values are whole numbers from 1 to 100 "
                + "(RFC 9406 recommends 5).", error(Map.of("--cc", "newreno", "--hystart-css-rounds", "0")));
        assertEquals("--hystart-css-rounds: 'five' is not a number of rounds; valid values are whole numbers from 1 to "
                + "100 (RFC 9406 recommends 5).", error(Map.of("slow-start", "hystart++", "hystart-css-rounds", "five")));
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
            assertEquals(r, c.controller().slowStart().rule());
            assertEquals(c, CongestionConfig.fromOptions(c.toOptions()), r + " round-trips");
        }
        assertEquals(SlowStartRule.STANDARD,
                CongestionConfig.fromOptions(Map.of("--hystart", "off")).controller().slowStart().rule());
        assertEquals(SlowStartRule.HYSTART_PLUS_PLUS,
                CongestionConfig.fromOptions(Map.of("--hystart", "on")).controller().slowStart().rule());
        // consistent combinations are accepted
        assertEquals(SlowStartRule.STANDARD, CongestionConfig.fromOptions(
                Map.of("--hystart", "off", "--slow-start", "standard")).controller().slowStart().rule());
        CongestionConfig linux = CongestionConfig.fromOptions(Map.of("--slow-start", "hystart", "--hystart-detect", "train",
                "--cc", "newreno"));
        assertEquals(HyStart.Detect.TRAIN, linux.controller().slowStart().hystartDetect());
        assertEquals(0.4, CongestionConfig.fromOptions(Map.of("slow-start", "search", "search-threshold", "0.4"))
                .controller().slowStart().searchThreshold());
        // the factory hands each controller its rule
        CongestionSetup s = setup(CongestionConfig.fromOptions(Map.of("--slow-start", "search")), 1200);
        assertEquals("search", ((CubicController) s.controller()).qlogState().get("slow_start_rule"));
        CongestionSetup h = setup(CongestionConfig.fromOptions(
                Map.of("--cc", "newreno", "--slow-start", "hystart")), 1200);
        assertEquals("hystart", h.controller().qlogState().get("slow_start_rule"));
    }

    @Test
    void slowStartErrorsAreOneSentence() {
        assertEquals("--slow-start: 'hybla' is not a slow-start rule; valid values are standard, hystart++, hystart, search, "
                + "onset, onset-bdp, onset-bdp-queue.", error(Map.of("--slow-start", "hybla")));
        assertEquals("--slow-start onset-bdp applies only to --cc newreno and cubic; --cc bbr leaves Startup by the draft's "
                + "full-pipe and loss checks (--slow-start standard) or also at the queue's onset (--slow-start onset).",
                error(Map.of("--cc", "bbr", "--slow-start", "onset-bdp")));
        assertEquals("--onset-delay: '0.05ms' is not a valid delay; give a time from 0.1ms to 100ms, e.g. 1ms or 500us.",
                error(Map.of("--slow-start", "onset-bdp", "--onset-delay", "0.05ms")));
        assertEquals("--onset-delay is a parameter of --slow-start onset or --slow-start onset-bdp or --slow-start "
                + "onset-bdp-queue, not of --slow-start search; leave it out or select --slow-start onset or --slow-start "
                + "onset-bdp or --slow-start onset-bdp-queue.",
                error(Map.of("--slow-start", "search", "--onset-delay", "2ms")));
        CongestionConfig ob = CongestionConfig.fromOptions(Map.of("--slow-start", "onset-bdp", "--onset-delay", "3ms"));
        assertEquals(SlowStartRule.ONSET_BDP, ob.controller().slowStart().rule());
        assertEquals(Map.of("--slow-start", "onset-bdp", "--onset-delay", "3ms"), ob.controller().slowStart().toOptions());
        assertEquals("onset-bdp", setup(ob, 1200).controller()
                .qlogState().get("slow_start_rule"));
        CongestionConfig obq = CongestionConfig.fromOptions(Map.of("--slow-start", "onset-bdp-queue", "--onset-delay", "3ms"));
        assertEquals(SlowStartRule.ONSET_BDP_QUEUE, obq.controller().slowStart().rule());
        assertEquals(Map.of("--slow-start", "onset-bdp-queue", "--onset-delay", "3ms"), obq.controller().slowStart().toOptions());
        assertEquals("onset-bdp-queue", setup(obq, 1200).controller().qlogState().get("slow_start_rule"));
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
                + "out or select --slow-start search.", error(Map.of("--slow-start", "hystart++", "--search-threshold", "0.3")));
        // beside no rule, the error names the controller's default as such
        assertEquals("--search-threshold is a parameter of --slow-start search, not of --slow-start onset-bdp-queue "
                + "(--cc cubic's default); leave it out or select --slow-start search.",
                error(Map.of("--search-threshold", "0.3")));
        assertEquals("--hystart-l is a parameter of --slow-start hystart++, not of --slow-start onset-bdp-queue (--cc "
                + "cubic's default); leave it out or select --slow-start hystart++.", error(Map.of("--hystart-l", "16")));
        assertEquals("--hystart-css-rounds is a parameter of --slow-start hystart++, not of --slow-start standard; leave "
                + "it out or select --slow-start hystart++.", error(Map.of("--hystart", "off", "--hystart-css-rounds", "3")));
        // BBR takes standard (the draft's Startup) and onset, and round-trips either
        CongestionConfig bbr = CongestionConfig.fromOptions(Map.of("--cc", "bbr"));
        assertEquals(SlowStartConfig.defaultRule(CongestionAlgorithm.BBR), bbr.controller().slowStart().rule());
        assertEquals(bbr, CongestionConfig.fromOptions(bbr.toOptions()));
        CongestionConfig onset = CongestionConfig.fromOptions(Map.of("--cc", "bbr", "--slow-start", "onset", "--onset-delay", "2ms"));
        assertEquals(2_000_000, onset.controller().slowStart().onsetMinDelay());
        assertEquals("2ms", onset.toOptions().get("--onset-delay"));
        assertEquals(onset, CongestionConfig.fromOptions(onset.toOptions()));
        assertEquals(500_000, CongestionConfig.fromOptions(Map.of("--slow-start", "onset", "--onset-delay", "0.5ms"))
                .controller().slowStart().onsetMinDelay());
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
        CongestionConfig unpaced = CongestionConfig.fromOptions(Map.of("--cc", "newreno", "--pacer", "none"));
        CongestionSetup reno = setup(unpaced, mds);
        assertInstanceOf(NewRenoController.class, reno.controller());
        assertInstanceOf(NoPacer.class, reno.pacer());
        assertEquals(HyStartPlusPlus.NON_PACED_L, assertInstanceOf(HyStartPlusPlus.class,
                unpaced.controller().slowStart().create(unpaced.pacing().paced())).limitSegments(), "unpaced: L = 8");

        CongestionSetup cubic = setup(CongestionConfig.fromOptions(
                Map.of("--rollback", "rfc9438", "--pacer", "token-bucket")), mds);
        assertEquals(CubicRollback.RFC9438, assertInstanceOf(CubicController.class, cubic.controller()).rollbackMode());
        assertInstanceOf(TokenBucketPacer.class, cubic.pacer());

        CongestionSetup bbr = setup(CongestionConfig.fromOptions(
                Map.of("--cc", "bbr", "--pacer", "leaky-bucket")), mds);
        assertInstanceOf(BbrV3Controller.class, bbr.controller());
        assertInstanceOf(LeakyBucketPacer.class, bbr.pacer());
        assertInstanceOf(IntervalPacer.class, setup(CongestionConfig.DEFAULT, mds).pacer());

        assertEquals("maximum datagram size must be at least 1200 bytes (RFC 9000 §14), got 1000.",
                assertThrows(IllegalArgumentException.class,
                        () -> setup(CongestionConfig.DEFAULT, 1000)).getMessage());
    }

    /** The controller's options and the pacer's are read by their own records; this one only puts them together. */
    @Test
    void bundlesTheControllersAndThePacersOptions() {
        List<String> names = new ArrayList<>(ControllerConfig.OPTION_NAMES);
        names.addAll(PacingConfig.OPTION_NAMES);
        assertEquals(names, CongestionConfig.OPTION_NAMES);
        assertEquals(new CongestionConfig(ControllerConfig.DEFAULT, PacingConfig.DEFAULT), CongestionConfig.DEFAULT);
        Map<String, String> options = Map.of("--cc", "bbr", "--slow-start", "onset", "--pacer", "none", "--quantum", "2p");
        CongestionConfig c = CongestionConfig.fromOptions(options);
        assertEquals(ControllerConfig.fromOptions(options), c.controller());
        assertEquals(PacingConfig.fromOptions(options), c.pacing());
        assertFalse(c.pacing().paced());
        assertTrue(CongestionConfig.DEFAULT.pacing().paced());
        List<String> keys = new ArrayList<>(c.controller().toOptions().keySet());
        keys.addAll(c.pacing().toOptions().keySet());
        assertEquals(keys, List.copyOf(c.toOptions().keySet()), "the controller's options, then the pacer's");
        assertEquals(ControllerConfig.DEFAULT, ControllerConfig.fromOptions(Map.of("--pacer", "fq")), "not its option");
        assertEquals(PacingConfig.DEFAULT, PacingConfig.fromOptions(Map.of("--cc", "vegas")), "not its option");
    }
}
