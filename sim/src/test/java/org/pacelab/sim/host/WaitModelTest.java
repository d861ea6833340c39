package org.pacelab.sim.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The waits of the io event loop in virtual time, with constant latencies so the arithmetic shows. */
class WaitModelTest {
    private static HostTiming timing() {
        return new HostTiming("test", EmpiricalDistribution.constant(70_000), EmpiricalDistribution.constant(20_000),
                EmpiricalDistribution.constant(300), EmpiricalDistribution.constant(100_000),
                EmpiricalDistribution.constant(40_000), EmpiricalDistribution.constant(10_000),
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void eachStrategyResumesLateByItsLateness() {
        assertEquals(1_070_000, new WaitModel("park", timing(), new SplittableRandom(1)).strategyResume(0, 1_000_000));
        assertEquals(1_020_000, new WaitModel("park-tight", timing(), new SplittableRandom(1)).strategyResume(0, 1_000_000));
        assertEquals(1_000_300, new WaitModel("spin", timing(), new SplittableRandom(1)).strategyResume(0, 1_000_000));
    }

    @Test
    void hybridParksUntilSixtyMicrosecondsBeforeThenSpins() {
        WaitModel hybrid = new WaitModel("hybrid", timing(), new SplittableRandom(1));
        // the park ending 70 µs late overshoots the deadline by 10 µs; spinning cannot undo that
        assertEquals(1_010_300, hybrid.strategyResume(0, 1_000_000));
        // a deadline closer than 60 µs is spun for at once
        assertEquals(50_300, hybrid.strategyResume(0, 50_000));
    }

    /**
     * A loop with no timer at all (every connection's deadline Long.MAX_VALUE) waits on the socket for ever: its
     * resume saturates instead of wrapping into the past when the sampled lateness exceeds the timeout's rounding
     * (the crash of a dual-connectivity run once clients sent keep-alive probes, 2026-12-02).
     */
    @Test
    void aSocketWaitWithoutDeadlineNeverResumesInThePast() {
        HostTiming late = new HostTiming("test", EmpiricalDistribution.constant(70_000), EmpiricalDistribution.constant(20_000),
                EmpiricalDistribution.constant(300), EmpiricalDistribution.constant(5_000_000),
                EmpiricalDistribution.constant(40_000), EmpiricalDistribution.constant(10_000),
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        WaitModel park = new WaitModel("park", late, new SplittableRandom(1));
        long now = 4_311_633_486L;
        assertEquals(Long.MAX_VALUE, park.socketTimeoutResume(now, park.socketTimeout(now, Long.MAX_VALUE)));
        assertEquals(now + 3_000_000 + 5_000_000, park.socketTimeoutResume(now, park.socketTimeout(now, now + 4_900_000)),
                "a finite deadline keeps its lateness");
    }

    @Test
    void longWaitsGoToTheSocketWithMillisecondTimeouts() {
        WaitModel park = new WaitModel("park", timing(), new SplittableRandom(1));
        assertEquals(2_000_000, park.socketWaitThreshold());
        assertEquals(3_000_000, park.socketTimeout(0, 4_900_000), "4.9 ms − 1 ms = 3.9 ms, rounded down to 3 ms");
        assertEquals(1_000_000, park.socketTimeout(0, 2_100_000), "at least 1 ms");
        assertEquals(3_100_000, park.socketTimeoutResume(0, 3_000_000));
        assertEquals(540_000, park.socketWakeResume(500_000));
        assertEquals(1_000_000, new WaitModel("spin", timing(), new SplittableRandom(1)).socketWaitThreshold());
    }

    @Test
    void anUnknownStrategyIsOneSentence() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WaitModel("sleep", timing(), new SplittableRandom(1)));
        assertEquals("--send: 'sleep' is not a send strategy; valid: park, park-tight, hybrid, spin", e.getMessage());
    }
}
