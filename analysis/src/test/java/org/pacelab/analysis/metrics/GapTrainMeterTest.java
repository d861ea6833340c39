package org.pacelab.analysis.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class GapTrainMeterTest {
    private static final long US = 1_000;

    private static GapTrainMeter feed(long thresholdNs, List<long[]> ended, long... times) {
        GapTrainMeter m = new GapTrainMeter(thresholdNs, new NanosDistribution(), new TrainLengths(),
                (i, n) -> ended.add(new long[] {i, n}));
        for (long t : times) {
            m.onPacket(t);
        }
        m.finish();
        return m;
    }

    @Test
    void gapExactlyAtTheThresholdStartsANewTrain() {
        List<long[]> ended = new ArrayList<>();
        // gaps: 99.999 µs (continues), 100 µs (breaks), 50 µs (continues)
        GapTrainMeter m = feed(100 * US, ended, 0, 99_999, 199_999, 249_999);
        assertEquals(2, m.trains().trains());
        assertEquals(List.of(0L, 2L, 1L, 2L), flatten(ended));
        assertEquals(2, m.gapsBelowThreshold());
        assertEquals(3, m.gaps().count());
    }

    @Test
    void singlePacketsAndIdleGapsHandComputed() {
        // trains: {0,10,20} {1000} {5000,5050} {90000} with 100 µs threshold and times in µs
        long[] t = {0, 10, 20, 1000, 5000, 5050, 90000};
        for (int i = 0; i < t.length; i++) {
            t[i] *= US;
        }
        GapTrainMeter m = feed(100 * US, new ArrayList<>(), t);
        TrainLengths tl = m.trains();
        assertEquals(4, tl.trains());
        assertEquals(7, tl.packets());
        assertEquals(2.0 / 7, tl.shareAtMost(1), 1e-12);   // the two packets alone
        assertEquals(4.0 / 7, tl.shareAtMost(2), 1e-12);   // plus the pair
        assertEquals(1.0, tl.shareAtMost(5), 1e-12);
        assertEquals((9 + 1 + 4 + 1) / 7.0, tl.perPacketMean(), 1e-12); // Σn²/Σn
        assertEquals(2, tl.perPacketQuantile(0.5));      // 4th of 7 packets (sorted 1,1,2,2,3,3,3)
        assertEquals(3, tl.longest());
        assertEquals(3.0 / 6, m.gapsBelowThreshold() / 6.0, 1e-12);
    }

    @Test
    void onePacketIsOneTrainWithoutGaps() {
        GapTrainMeter m = feed(100 * US, new ArrayList<>(), 42);
        assertEquals(1, m.trains().trains());
        assertEquals(1.0, m.trains().shareAtMost(1));
        assertEquals(0, m.gaps().count());
    }

    @Test
    void outOfOrderTimestampCountsAsZeroGap() {
        GapTrainMeter m = feed(100 * US, new ArrayList<>(), 1000 * US, 999 * US, 1001 * US);
        assertEquals(1, m.outOfOrder());
        assertEquals(1, m.trains().trains());
        assertEquals(0, m.gaps().minNs());
    }

    private static List<Long> flatten(List<long[]> l) {
        List<Long> out = new ArrayList<>();
        l.forEach(a -> {
            out.add(a[0]);
            out.add(a[1]);
        });
        return out;
    }
}
