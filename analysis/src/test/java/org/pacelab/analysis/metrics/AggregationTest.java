package org.pacelab.analysis.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class AggregationTest {
    @Test
    void populationStandardDeviationHandComputed() {
        RunningStats s = new RunningStats();
        for (double x : new double[] {2, 4, 4, 4, 5, 5, 7, 9}) {
            s.add(x);
        }
        assertEquals(5.0, s.mean(), 1e-12);
        assertEquals(2.0, s.populationStd(), 1e-12); // divides by n, not n-1
        RunningStats one = new RunningStats();
        one.add(37.37);
        assertEquals(0.0, one.populationStd());
        assertTrue(Double.isNaN(new RunningStats().mean()));
    }

    @Property
    void mergingEqualsAddingInOrder(@ForAll @Size(min = 1, max = 40) List<@DoubleRange(min = -1e6, max = 1e6) Double> a,
                                    @ForAll @Size(min = 0, max = 40) List<@DoubleRange(min = -1e6, max = 1e6) Double> b) {
        RunningStats all = new RunningStats();
        RunningStats left = new RunningStats();
        RunningStats right = new RunningStats();
        a.forEach(x -> { all.add(x); left.add(x); });
        b.forEach(x -> { all.add(x); right.add(x); });
        left.merge(right);
        assertEquals(all.count(), left.count());
        assertEquals(all.mean(), left.mean(), 1e-6);
        assertEquals(all.populationStd(), left.populationStd(), 1e-6);
    }

    @Test
    void pooledTrainLengthsCountEveryPacketOfEveryRepetition() {
        TrainLengths run1 = new TrainLengths();
        run1.addTrain(1);
        run1.addTrain(3);
        TrainLengths run2 = new TrainLengths();
        run2.addTrain(1);
        run2.addTrain(1);
        run2.addTrain(5000); // beyond the dense range
        run1.merge(run2);
        assertEquals(5, run1.trains());
        assertEquals(5006, run1.packets());
        assertEquals(3.0 / 5006, run1.shareAtMost(1), 1e-15);
        assertEquals(6.0 / 5006, run1.shareAtMost(4999), 1e-15);
        assertEquals(5000, run1.perPacketQuantile(0.5));
        assertEquals(5000, run1.longest());
    }

    @Test
    void pooledGapDistributionsAddCounts() {
        NanosDistribution a = new NanosDistribution();
        NanosDistribution b = new NanosDistribution();
        for (int i = 0; i < 100; i++) {
            a.record(10_000);
            b.record(1_000_000);
        }
        a.merge(b);
        assertEquals(200, a.count());
        assertEquals(505_000, a.meanNs(), 1e-9);
        assertEquals(10_000, a.quantileNs(0.5), 10_000 * 1e-3);
        assertEquals(1_000_000, a.quantileNs(0.99), 1_000_000 * 1e-3);
        assertEquals(0.5, a.shareBelow(20_000), 1e-12);
    }

    @Test
    void signedHistogramQuantilesAndNegativeBins() {
        SignedHistogram h = new SignedHistogram(1000);
        h.record(-1500);
        h.record(-500);
        h.record(500);
        h.record(2500);
        assertEquals(-1500.0, h.quantile(0.25));   // bin [-2000,-1000) centre
        assertEquals(-500.0, h.quantile(0.5));     // bin [-1000,0)
        assertEquals(2500.0, h.quantile(1.0));
        List<Long> starts = new java.util.ArrayList<>();
        h.forEachBin((s, n) -> starts.add(s));
        assertEquals(List.of(-2000L, -1000L, 0L, 2000L), starts);
    }

    @Test
    void precisionIsThePopulationStdOfSendDelaysWhateverTheClockOffset() {
        PrecisionMeter p = new PrecisionMeter(new SignedHistogram(RunDistributions.SEND_DELAY_BIN_NS));
        long offset = 1_700_000_000_000_000_000L; // a capture clock far from the qlog's
        for (long d : new long[] {-10_000, 10_000, -10_000, 10_000}) {
            p.onMatched(offset + d);
        }
        assertEquals(10_000, p.precisionNs(), 1e-9);
        assertEquals(offset, p.meanDelayNs(), 1);
        p.onGap(10_000, 20_000);
        p.onGap(10_000, 5_000);
        p.onGap(10_000, 10_000);
        assertEquals(1.0, p.gapRatioMedian(), 1e-3);
        assertEquals(10_000, p.targetGaps().quantileNs(0.5), 10);
    }
}
