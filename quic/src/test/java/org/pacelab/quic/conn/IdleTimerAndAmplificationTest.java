package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link IdleTimer} (RFC 9000 §10.1) and {@link AmplificationLimit} (§8.1) on their own. */
class IdleTimerAndAmplificationTest {
    private static final long MS = 1_000_000L;

    @Test
    void theIdleTimeoutIsTheSmallerOfBothAndAtLeastThreePtos() {
        IdleTimer t = new IdleTimer(30_000 * MS, 0);
        assertEquals(30_000 * MS, t.deadline());
        t.setPeerTimeout(10_000 * MS);
        t.onPacketReceived(1_000 * MS, 100 * MS);
        assertEquals(11_000 * MS, t.deadline());
        // three PTOs above the timeout win
        t.onPacketReceived(2_000 * MS, 5_000 * MS);
        assertEquals(17_000 * MS, t.deadline());
    }

    @Test
    void onlyTheFirstAckElicitingPacketAfterAReceiveRestartsIt() {
        IdleTimer t = new IdleTimer(1_000 * MS, 0);
        t.onPacketReceived(0, 10 * MS);
        t.onAckElicitingSent(100 * MS, 10 * MS);
        assertEquals(1_100 * MS, t.deadline());
        t.onAckElicitingSent(500 * MS, 10 * MS);
        assertEquals(1_100 * MS, t.deadline());
        t.onPacketReceived(600 * MS, 10 * MS);
        t.onAckElicitingSent(700 * MS, 10 * MS);
        assertEquals(1_700 * MS, t.deadline());
    }

    @Test
    void withoutAnyTimeoutTheConnectionNeverIdlesOut() {
        IdleTimer t = new IdleTimer(0, 0);
        t.onPacketReceived(5, 10 * MS);
        assertEquals(Long.MAX_VALUE, t.deadline());
    }

    @Test
    void anUnvalidatedServerSendsAtMostThreeTimesWhatItReceived() {
        AmplificationLimit a = new AmplificationLimit(false);
        assertTrue(a.atLimit());
        a.onReceived(1200);
        assertEquals(3600, a.allowance());
        a.onSent(3000);
        assertEquals(600, a.allowance());
        assertFalse(a.atLimit());
        a.onSent(600);
        assertTrue(a.atLimit());
        a.validate();
        assertFalse(a.atLimit());
        assertEquals(Long.MAX_VALUE, a.allowance());
        assertEquals(3600, a.sent());
    }
}
