package org.pacelab.quic.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.AckEvent;
import org.pacelab.quic.cc.CongestionController;
import org.pacelab.quic.cc.LossEvent;
import org.pacelab.quic.cc.PacketInfo;
import org.pacelab.quic.recovery.RttEstimator;

class PacingRateCalculatorTest {
    private static final long MS = 1_000_000L;
    private static final int MDS = 1200;

    /** A controller with a fixed state. */
    private record FixedController(long congestionWindow, boolean inSlowStart, long pacingRate, long sendQuantum)
            implements CongestionController {
        @Override public String name() { return "fixed"; }
        @Override public long slowStartThreshold() { return Long.MAX_VALUE; }
        @Override public String state() { return "fixed"; }
        @Override public void onPacketSent(long now, PacketInfo packet, long bytesInFlight) {}
        @Override public void onAck(AckEvent ack) {}
        @Override public void onLoss(LossEvent loss) {}
    }

    private static RttEstimator rtt(long srtt) {
        RttEstimator r = new RttEstimator();
        r.onSample(0, srtt, 0, 0, true);
        return r;
    }

    private static PacingConfig config(Map<String, String> options) {
        return PacingConfig.fromOptions(options);
    }

    @Test
    void gainTimesWindowOverSmoothedRtt() {
        PacingConfig c = PacingConfig.DEFAULT;
        // slow start: 2.0 * 60 000 B / 40 ms = 3 000 000 B/s; quantum: 1 ms of it = 3000 B
        PacingRate ss = PacingRateCalculator.compute(new FixedController(60_000, true, 0, 0), rtt(40 * MS), 1000, c, MDS);
        assertEquals(new PacingRate(3_000_000, 3000, 60_000, 40 * MS, false), ss);
        // congestion avoidance: 1.25 * 60 000 / 40 ms = 1 875 000 B/s; 1 ms = 1875 B < 2 * mds -> 2400
        PacingRate ca = PacingRateCalculator.compute(new FixedController(60_000, false, 0, 0), rtt(40 * MS), 0, c, MDS);
        assertEquals(new PacingRate(1_875_000, 2400, 60_000, 40 * MS, true), ca);
    }

    @Test
    void noRateBeforeTheFirstRttSample() {
        PacingRate r = PacingRateCalculator.compute(new FixedController(12_000, true, 0, 0), new RttEstimator(), 0,
                PacingConfig.DEFAULT, MDS);
        assertEquals(0, r.bytesPerSecond());
        assertEquals(2400, r.quantum());
    }

    @Test
    void controllerRateAndQuantumWinForAuto() {
        PacingRate r = PacingRateCalculator.compute(new FixedController(60_000, true, 7_000_000, 7000), rtt(40 * MS),
                0, PacingConfig.DEFAULT, MDS);
        assertEquals(7_000_000, r.bytesPerSecond());
        assertEquals(7000, r.quantum());
        // an explicit quantum overrides the controller's
        PacingRate fixed = PacingRateCalculator.compute(new FixedController(60_000, true, 7_000_000, 7000),
                rtt(40 * MS), 0, config(Map.of("--quantum", "1p")), MDS);
        assertEquals(1200, fixed.quantum());
    }

    @Test
    void autoQuantumIsCappedAt64KiB() {
        PacingRate r = PacingRateCalculator.compute(new FixedController(10_000_000, false, 0, 0), rtt(10 * MS), 0,
                PacingConfig.DEFAULT, MDS);
        assertEquals(1_250_000_000L, r.bytesPerSecond());
        assertEquals(65_536, r.quantum());
    }

    @Test
    void boundsAndTheUnpacedThreshold() {
        FixedController cc = new FixedController(60_000, false, 0, 0);      // 1 875 000 B/s at 40 ms
        assertEquals(2_000_000, PacingRateCalculator.compute(cc, rtt(40 * MS), 0,
                config(Map.of("--min-pacing-rate", "16mbit")), MDS).bytesPerSecond());
        assertEquals(1_000_000, PacingRateCalculator.compute(cc, rtt(40 * MS), 0,
                config(Map.of("--max-pacing-rate", "8mbit")), MDS).bytesPerSecond());
        assertEquals(0, PacingRateCalculator.compute(cc, rtt(40 * MS), 0,
                config(Map.of("--unpaced-above", "10mbit")), MDS).bytesPerSecond());
        assertEquals(1_875_000, PacingRateCalculator.compute(cc, rtt(40 * MS), 0,
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
