package org.pacelab.sim.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import org.junit.jupiter.api.Test;

class EmpiricalDistributionTest {

    @Test
    void quantilesAreInterpolatedLinearly() {
        EmpiricalDistribution d = EmpiricalDistribution.ofQuantiles("x", new long[] {0, 100, 1000});
        assertEquals(0, d.quantile(0));
        assertEquals(50, d.quantile(0.25));
        assertEquals(100, d.quantile(0.5));
        assertEquals(550, d.quantile(0.75));
        assertEquals(1000, d.quantile(1));
        assertEquals((50 + 550) / 2.0, d.mean(), 1e-9);
    }

    @Test
    void samplesFollowTheQuantiles() {
        EmpiricalDistribution d = EmpiricalDistribution.ofQuantiles("x", new long[] {0, 100, 1000});
        SplittableRandom r = new SplittableRandom(1);
        int below100 = 0;
        int n = 200_000;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            long v = d.sample(r);
            if (v <= 100) below100++;
            sum += v;
        }
        assertEquals(0.5, below100 / (double) n, 0.01);
        assertEquals(d.mean(), sum / n, 5);
    }

    @Test
    void fromSamplesKeepsMinimumMedianAndMaximum() {
        long[] s = {5, 1, 9, 3, 7};
        EmpiricalDistribution d = EmpiricalDistribution.fromSamples("x", s, 5);
        assertEquals(1, d.quantile(0));
        assertEquals(5, d.quantile(0.5));
        assertEquals(9, d.quantile(1));
    }

    @Test
    void badQuantilesNameTheFieldAndIndex() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EmpiricalDistribution.ofQuantiles("park_lateness_ns", new long[] {10, 5}));
        assertEquals("park_lateness_ns[1]: 5 is below the previous quantile 10; quantiles must not decrease", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EmpiricalDistribution.ofQuantiles("spin", new long[] {-1}));
        assertEquals("spin[0]: -1 is negative; durations are >= 0 ns", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EmpiricalDistribution.ofQuantiles("x", new long[0]));
    }

    @Property(tries = 200)
    void samplesStayWithinTheRange(@ForAll @Size(min = 1, max = 20) long[] raw, @ForAll @LongRange(min = 0, max = 1000) long seed) {
        long[] q = raw.clone();
        for (int i = 0; i < q.length; i++) {
            q[i] = Math.abs(q[i] % 1_000_000_000L);
        }
        java.util.Arrays.sort(q);
        EmpiricalDistribution d = EmpiricalDistribution.ofQuantiles("x", q);
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 100; i++) {
            long v = d.sample(r);
            assertTrue(v >= q[0] && v <= q[q.length - 1], v + " outside [" + q[0] + ", " + q[q.length - 1] + "]");
        }
    }
}
