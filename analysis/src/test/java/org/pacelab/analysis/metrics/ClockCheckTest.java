package org.pacelab.analysis.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClockCheckTest {
    @Test
    void theOffsetIsHalfTheDifferenceOfTheSmallestDelaysWithinHalfTheirSum() {
        ClockCheck c = new ClockCheck();
        assertFalse(c.measured());
        assertFalse(c.inconsistent(), "nothing to judge yet");
        c.onDown(-23_460_000);
        c.onDown(-23_000_000);
        assertFalse(c.measured(), "one way only");
        c.onUp(23_600_000);
        c.onUp(23_510_000);
        assertTrue(c.measured());
        assertEquals(23_485_000.0, c.offsetNs());
        assertEquals(25_000.0, c.boundNs());
        assertEquals(2, c.upSamples());
        assertEquals(2, c.downSamples());
        assertTrue(c.inconsistent(), "a packet reached the capture before its intended send time");
    }

    @Test
    void delaysOfAtLeastZeroBothWaysAreConsistentWhateverTheirSize() {
        ClockCheck c = new ClockCheck();
        c.onDown(0);
        c.onUp(40_000_000);
        assertFalse(c.inconsistent(), "an offset of 0 fits: a slow uplink is not a clock error");
        assertEquals(20_000_000.0, c.offsetNs());
        assertEquals(20_000_000.0, c.boundNs());
        c.onUp(-1);
        assertTrue(c.inconsistent(), "a client packet at the server before the capture saw it");
    }
}
