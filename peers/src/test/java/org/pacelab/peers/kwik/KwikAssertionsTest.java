package org.pacelab.peers.kwik;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The tests run Kwik as it is released, without its assertions (the root pom's {@code -da:tech.kwik...}): Kwik 0.10.9's
 * {@code LossDetector} asserts a loss delay above 0 ms, which a 0 ms loopback RTT breaks, and the AssertionError kills
 * the thread that reads the connection's packets (1 connection in 30 to 60 on a loaded host, ending by idle timeout).
 */
class KwikAssertionsTest {
    @Test
    void kwikRunsWithoutAssertionsWhileOursStayOn() {
        assertFalse(tech.kwik.core.recovery.LossDetector.class.desiredAssertionStatus(), "Kwik's assertions are on");
        assertTrue(KwikAssertionsTest.class.desiredAssertionStatus(), "pacelab's assertions are off in tests");
    }
}
