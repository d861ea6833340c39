package org.pacelab.io.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pacelab.net.sys.Libc;

class TxTimeClockTest {

    @Test
    void systemNanoTimeIsClockMonotonic() {
        long before = System.nanoTime();
        long mono = Libc.clockGettime(Libc.CLOCK_MONOTONIC);
        long after = System.nanoTime();
        assertTrue(before <= mono && mono <= after, "the runtime's times are CLOCK_MONOTONIC, so fq can use them as they are");
        assertEquals(12345L, TxTimeClock.MONOTONIC.converter().toClock(12345L, 0));
    }

    @Test
    void taiTimesFollowTheTaiClock() {
        TxTimeClock.Converter c = TxTimeClock.TAI.converter();
        long now = System.nanoTime();
        long before = c.toClock(now, now);
        long tai = Libc.clockGettime(Libc.CLOCK_TAI);
        long after = c.toClock(System.nanoTime(), now);
        long slack = 50_000_000L;
        assertTrue(before - slack <= tai && tai <= after + slack, "converted " + before + ".." + after + ", CLOCK_TAI " + tai);
    }

    @Test
    void parseListsTheClocks() {
        assertEquals(TxTimeClock.TAI, TxTimeClock.parse(" TAI "));
        assertEquals("--txtime-clock: 'realtime' is not a clock; valid values are monotonic, tai.",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                        () -> TxTimeClock.parse("realtime")).getMessage());
    }
}
