package org.pacelab.net.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** RealTimeDriver.arrivalTime: a datagram's model arrival time from its kernel stamp, whatever the wall clock did. */
class ArrivalTimeTest {
    static final long EPOCH_ZERO = 1_796_388_484_000_000_000L; // the wall clock at model time 0 (the emulator's start)
    static final long NOW = 4_300_000_000L;                    // read 4.3 s after the start
    static final long WAIT = 21_500;                           // the datagram waited 21.5 us in the socket

    @Test
    void theArrivalIsTheReadTimeLessTheWaitWithOrWithoutAStepOfTheWallClock() {
        for (long step : new long[] {0, 23_500_000, -29_500_000}) {
            long wall = EPOCH_ZERO + NOW + step;                 // the wall clock read just before the read time
            long kernel = wall - WAIT;                          // stamped by the kernel on the same (stepped) clock
            assertEquals(NOW - WAIT, RealTimeDriver.arrivalTime(kernel, NOW, wall, 0),
                    "a step of " + step + " ns since the start does not move the arrival");
        }
    }

    @Test
    void theArrivalStaysBetweenTheModelsTimeAndTheReadTime() {
        long wall = EPOCH_ZERO + NOW;
        assertEquals(NOW, RealTimeDriver.arrivalTime(wall + 5_000, NOW, wall, 0),
                "a stamp after the wall clock's reading (a backward step between them) is no negative wait");
        assertEquals(NOW - 100, RealTimeDriver.arrivalTime(wall - WAIT, NOW, wall, NOW - 100),
                "never before the model's current time");
        assertEquals(NOW, RealTimeDriver.arrivalTime(0, NOW, 0, 0), "no stamp: the read time");
        assertEquals(NOW + 7, RealTimeDriver.arrivalTime(0, NOW, 0, NOW + 7), "no stamp, the model ahead: the model's time");
    }
}
