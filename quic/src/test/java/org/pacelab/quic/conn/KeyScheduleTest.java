package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.packet.EncryptionLevel;

/** The 1-RTT key phase (RFC 9001 §6): which keys open a packet, and what counts toward the update interval. */
class KeyScheduleTest {

    private static KeySchedule oneRtt() {
        KeySchedule k = new KeySchedule(true);
        byte[] client = new byte[32];
        byte[] server = new byte[32];
        server[0] = 1;
        k.install(EncryptionLevel.ONE_RTT, CipherSuite.AES_128_GCM_SHA256, client, server);
        return k;
    }

    @Test
    void oldPhasePacketsAfterOurUpdateStayWithThePreviousKeys() {
        KeySchedule k = oneRtt();
        k.onReceived(0, 5);
        PacketKeys previous = k.rx(EncryptionLevel.ONE_RTT);
        k.onPacketSent(10);
        k.onAcked(10);
        assertTrue(k.canInitiateUpdate());
        k.update(Long.MAX_VALUE);
        assertEquals(1, k.keyPhase());
        // the peer has not seen our update yet: its packets 20 and 21 come in phase 0, opened with the previous keys
        assertFalse(k.isNextGeneration(0, 20));
        assertSame(previous, k.rxFor(0, 20));
        k.onReceived(0, 20);
        // packet 20 of the old phase must not become the lowest of the new one, or 21 would be tried with the next keys
        assertFalse(k.isNextGeneration(0, 21));
        assertSame(previous, k.rxFor(0, 21));
        assertEquals(0, k.packetsReceivedInPhase());
        // the peer follows: phase 1 packets are the current phase, and count
        k.onReceived(1, 22);
        assertSame(k.rx(EncryptionLevel.ONE_RTT), k.rxFor(1, 23));
        assertEquals(1, k.packetsReceivedInPhase());
        // a phase 0 packet above the lowest of phase 1 is the peer's next update
        assertTrue(k.isNextGeneration(0, 30));
    }
}
