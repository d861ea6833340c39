package org.pacelab.net.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pacelab.net.spec.SpecException;

/** The warm-up option's values and its line in the emulator's output. */
class WarmUpTest {
    @Test
    void parsesOffOnAndPacketCounts() throws SpecException {
        assertEquals(0, WarmUp.parse("--warmup", "off"));
        assertEquals(0, WarmUp.parse("--warmup", " OFF "));
        assertEquals(WarmUp.DEFAULT_PACKETS, WarmUp.parse("--warmup", "on"));
        assertEquals(5000, WarmUp.parse("--warmup", "5000"));
        assertEquals(20000, WarmUp.parse("--warmup", "20_000"));
        assertEquals(WarmUp.MIN_PACKETS, WarmUp.parse("--warmup", Integer.toString(WarmUp.MIN_PACKETS)));
        assertEquals(WarmUp.MAX_PACKETS, WarmUp.parse("--warmup", Integer.toString(WarmUp.MAX_PACKETS)));
        assertEquals("off", WarmUp.word(0));
        assertEquals("5000", WarmUp.word(5000));
        assertEquals(15000, WarmUp.share(30000, 0));
        assertEquals(15000, WarmUp.share(30000, WarmUp.COPIES - 1));
        assertEquals(101, WarmUp.share(101, 0) + WarmUp.share(101, 1), "the copies run every packet asked");
    }

    @Test
    void aBadValueIsOneSentenceNamingTheOptionAndTheValidChoices() {
        for (String bad : new String[] {"soon", "", "0", "99", "10000001", "-5", "1e4", "30k"}) {
            SpecException e = assertThrows(SpecException.class, () -> WarmUp.parse("--warmup", bad), bad);
            assertEquals("--warmup: '" + bad + "' is not valid; use off, on (30000 packets) or a number of packets from 100 "
                    + "to 10000000", e.getMessage());
            assertEquals(1, e.getMessage().lines().count());
        }
    }

    @Test
    void itsLineSaysPacketsAndMilliseconds() {
        String line = new WarmUp.Result(30000, 29500, 812_000_000L, 9_100_000_000L, 230_000_000L, false, 30000).describe();
        assertEquals("warm-up: 30000 packets through 2 fresh copies of the link (29500 delivered, 9.1 s of model time) in 812 ms, "
                + "then 230 ms until the JIT compilers were idle; the tap, event log and counters start empty", line);
        String limited = new WarmUp.Result(1200, 1100, 30_000_000_000L, 1_000_000_000L, 0, true, 30000).describe();
        assertTrue(limited.startsWith("warm-up: 1200 packets ") && limited.contains("(stopped at its 30 s limit; 30000 asked)"),
                limited);
        assertTrue(WarmUp.OFF.startsWith("warm-up: off"));
    }
}
