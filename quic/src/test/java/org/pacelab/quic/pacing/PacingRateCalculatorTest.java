package org.pacelab.quic.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class PacingRateCalculatorTest {
    private static final long MS = 1_000_000L;
    private static final int MDS = 1200;

    /** A controller's state, as the calculator is given it. */
    private record FixedController(long congestionWindow, boolean inSlowStart, long pacingRate, long sendQuantum) {}

    /** The RTT estimates the calculator reads. */
    private record Rtt(boolean hasSample, long smoothedRtt) {}

    /** Before the first sample: RFC 9002's kInitialRtt, no sample. */
    private static final Rtt NO_SAMPLE = new Rtt(false, 333 * MS);

    private static Rtt rtt(long srtt) {
        return new Rtt(true, srtt);
    }

    private static PacingRate compute(FixedController cc, Rtt rtt, long bytesInFlight, PacingConfig config, int mds) {
        return PacingRateCalculator.compute(cc.congestionWindow(), cc.inSlowStart(), cc.pacingRate(), cc.sendQuantum(),
                rtt.hasSample(), rtt.smoothedRtt(), bytesInFlight, config, mds);
    }

    private static PacingConfig config(Map<String, String> options) {
        return PacingConfig.fromOptions(options);
    }

    @Test
    void gainTimesWindowOverSmoothedRtt() {
        PacingConfig c = PacingConfig.DEFAULT;
        // slow start: 2.0 * 60 000 B / 40 ms = 3 000 000 B/s; quantum: 1 ms of it = 3000 B
        PacingRate ss = compute(new FixedController(60_000, true, 0, 0), rtt(40 * MS), 1000, c, MDS);
        assertEquals(new PacingRate(3_000_000, 3000, 60_000, 40 * MS, false), ss);
        // congestion avoidance: 1.25 * 60 000 / 40 ms = 1 875 000 B/s; 1 ms = 1875 B < 2 * mds -> 2400
        PacingRate ca = compute(new FixedController(60_000, false, 0, 0), rtt(40 * MS), 0, c, MDS);
        assertEquals(new PacingRate(1_875_000, 2400, 60_000, 40 * MS, true), ca);
    }

    @Test
    void noRateBeforeTheFirstRttSample() {
        PacingRate r = compute(new FixedController(12_000, true, 0, 0), NO_SAMPLE, 0,
                PacingConfig.DEFAULT, MDS);
        assertEquals(0, r.bytesPerSecond());
        assertEquals(2400, r.quantum());
    }

    @Test
    void controllerRateAndQuantumWinForAuto() {
        PacingRate r = compute(new FixedController(60_000, true, 7_000_000, 7000), rtt(40 * MS),
                0, PacingConfig.DEFAULT, MDS);
        assertEquals(7_000_000, r.bytesPerSecond());
        assertEquals(7000, r.quantum());
        // an explicit quantum overrides the controller's
        PacingRate fixed = compute(new FixedController(60_000, true, 7_000_000, 7000),
                rtt(40 * MS), 0, config(Map.of("--quantum", "1p")), MDS);
        assertEquals(1200, fixed.quantum());
    }

    @Test
    void autoQuantumIsCappedAt64KiB() {
        PacingRate r = compute(new FixedController(10_000_000, false, 0, 0), rtt(10 * MS), 0,
                PacingConfig.DEFAULT, MDS);
        assertEquals(1_250_000_000L, r.bytesPerSecond());
        assertEquals(65_536, r.quantum());
    }

    @Test
    void boundsAndTheUnpacedThreshold() {
        FixedController cc = new FixedController(60_000, false, 0, 0);      // 1 875 000 B/s at 40 ms
        assertEquals(2_000_000, compute(cc, rtt(40 * MS), 0,
                config(Map.of("--min-pacing-rate", "16mbit")), MDS).bytesPerSecond());
        assertEquals(1_000_000, compute(cc, rtt(40 * MS), 0,
                config(Map.of("--max-pacing-rate", "8mbit")), MDS).bytesPerSecond());
        assertEquals(0, compute(cc, rtt(40 * MS), 0,
                config(Map.of("--unpaced-above", "10mbit")), MDS).bytesPerSecond());
        assertEquals(1_875_000, compute(cc, rtt(40 * MS), 0,
                config(Map.of("--unpaced-above", "20mbit")), MDS).bytesPerSecond());
    }

    @Test
    void zeroRateMeansUnpacedForEveryPacer() {
        for (PacerKind kind : PacerKind.values()) {
            Pacer p = kind.create(0);
            p.update(0, new PacingRate(0, 2400, 12_000, 40 * MS, false));
            for (int i = 0; i < 50; i++) {
                assertEquals(5 * MS, p.releaseTime(5 * MS, MDS), kind.optionValue());
                p.onPacketSent(5 * MS, MDS);
            }
            assertEquals(kind.optionValue(), p.name());
        }
        assertTrue(new IntervalPacer(3).initialBurstLeft() == 3);
        assertFalse(new IntervalPacer(0).pacing());
    }
}
