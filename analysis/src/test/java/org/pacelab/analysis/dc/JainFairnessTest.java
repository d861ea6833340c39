package org.pacelab.analysis.dc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class JainFairnessTest {
    @Test
    void equalsTheFormulaOnHandMadeInputs() {
        assertEquals(1.0, JainFairness.index(5, 5, 5), 1e-15);
        assertEquals(1.0 / 3, JainFairness.index(9, 0, 0), 1e-15);
        // (2 + 1)^2 / (2 * (4 + 1)) = 9 / 10
        assertEquals(0.9, JainFairness.index(2, 1), 1e-15);
        // (10 + 2)^2 / (2 * (100 + 4)) = 144 / 208
        assertEquals(144.0 / 208, JainFairness.index(10, 2), 1e-15);
        // (1 + 2 + 3 + 4)^2 / (4 * 30) = 100 / 120
        assertEquals(100.0 / 120, JainFairness.index(1, 2, 3, 4), 1e-15);
        assertEquals(1.0, JainFairness.index(7), 1e-15);
    }

    @Test
    void nothingToShareIsUndefined() {
        assertTrue(Double.isNaN(JainFairness.index()));
        assertTrue(Double.isNaN(JainFairness.index(0, 0)));
        assertThrows(IllegalArgumentException.class, () -> JainFairness.index(1, -1));
    }

    @Test
    void slidingWindowsSumBinsBeforeTheIndex() {
        long[][] bytes = {
                {10, 10, 10, 10},
                {10, 0, 0, 10},
        };
        // windows of 2 bins from bin 0 to 4: sums (20,10), (20,0), (20,10)
        double[] v = JainFairness.sliding(bytes, 0, 4, 2);
        assertArrayEquals(new double[] {JainFairness.index(20, 10), 0.5, JainFairness.index(20, 10)}, v, 1e-15);
        // a window as long as the range is the whole-range index
        assertArrayEquals(new double[] {JainFairness.index(40, 20)}, JainFairness.sliding(bytes, 0, 4, 4), 1e-15);
        assertEquals(0, JainFairness.sliding(bytes, 0, 4, 5).length);
        // missing bins count as zero
        assertArrayEquals(new double[] {0.5}, JainFairness.sliding(new long[][] {{5, 5}, {}}, 0, 2, 2), 1e-15);
    }

    @Property(tries = 300)
    void liesBetweenOneOverNAndOneAndIgnoresScale(@ForAll @Size(min = 1, max = 20) double[] raw,
                                                  @ForAll @DoubleRange(min = 0.01, max = 1000) double scale) {
        double[] x = new double[raw.length];
        for (int i = 0; i < raw.length; i++) x[i] = Math.abs(raw[i]) % 1e6;
        double j = JainFairness.index(x);
        if (Double.isNaN(j)) return;
        assertTrue(j >= 1.0 / x.length - 1e-12 && j <= 1 + 1e-12, "J = " + j);
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) y[i] = x[i] * scale;
        assertEquals(j, JainFairness.index(y), 1e-9);
    }
}
