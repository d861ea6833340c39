package org.pacelab.io.send;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GsoBudgetTest {

    @Test
    void fixedWithoutShrinking() {
        GsoBudget b = new GsoBudget(16, false);
        assertEquals(16, b.segments(1000, 500));
        assertEquals(0, b.cuts());
    }

    @Test
    void cutsByAQuarterWhenTheLossRateRisesByMoreThanATenthOfAPercent() {
        GsoBudget b = new GsoBudget(16, true);
        assertEquals(16, b.segments(0, 0));
        assertEquals(16, b.segments(1000, 1), "0.1 % is not more than 0.1 percentage points above 0");
        assertEquals(12, b.segments(1000, 2), "0.2 %: cut to 16 * 3 / 4");
        assertEquals(12, b.segments(2000, 5), "0.25 % is within 0.1 points of the 0.2 % at the last cut");
        assertEquals(10, b.segments(2000, 7), "0.35 %: 12 * 3 / 4 = 9, but never below 10");
        assertEquals(10, b.segments(3000, 30), "1 %: at the floor");
        assertEquals(10, b.segments(100_000, 30), "the loss rate fell: never grows back");
        assertEquals(3, b.cuts());
    }

    @Test
    void floorIsTheConfiguredCountWhenBelowTen() {
        GsoBudget b = new GsoBudget(4, true);
        assertEquals(4, b.segments(100, 50));
    }
}
