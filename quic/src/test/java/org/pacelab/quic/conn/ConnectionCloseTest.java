package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.packet.EncryptionLevel;

/** The rules of {@link ConnectionClose} on their own (RFC 9000 §10.2); whole connections closing are in ClosingTest. */
class ConnectionCloseTest {

    @Test
    void whileClosingTheFrameIsRepeatedForThe1st2nd4th8thPacketThatArrives() {
        ConnectionClose c = new ConnectionClose();
        c.closing(ConnectionClose.applicationClose(7, "done"), 1_000);
        assertTrue(c.takePacketDue());
        assertFalse(c.takePacketDue());
        List<Integer> answered = new ArrayList<>();
        for (int packet = 1; packet <= 20; packet++) {
            c.onPacketWhileClosing();
            if (c.takePacketDue()) {
                answered.add(packet);
            }
        }
        assertEquals(List.of(1, 2, 4, 8, 16), answered);
    }

    @Test
    void anApplicationCloseBeforeOneRttIsATransportCloseWithApplicationError() {
        ConnectionClose c = new ConnectionClose();
        c.closing(ConnectionClose.applicationClose(0x42, "bye"), Long.MAX_VALUE);
        ConnectionCloseFrame initial = c.frameFor(EncryptionLevel.INITIAL, 1000);
        assertFalse(initial.application());
        assertEquals(TransportError.APPLICATION_ERROR.code, initial.errorCode());
        assertEquals("", initial.reason());
        ConnectionCloseFrame oneRtt = c.frameFor(EncryptionLevel.ONE_RTT, 1000);
        assertTrue(oneRtt.application());
        assertEquals(0x42, oneRtt.errorCode());
        assertEquals("bye", oneRtt.reason());
    }

    @Test
    void theReasonIsCutTo200CharactersAndLeftOutWhenTheFrameWouldNotFit() {
        ConnectionClose c = new ConnectionClose();
        QuicException e = new QuicException(TransportError.PROTOCOL_VIOLATION, "x".repeat(500));
        c.closing(ConnectionClose.transportClose(e), 1_000);
        ConnectionCloseFrame full = c.frameFor(EncryptionLevel.ONE_RTT, 1000);
        assertEquals(200, full.reason().length());
        assertEquals(TransportError.PROTOCOL_VIOLATION.code, full.errorCode());
        ConnectionCloseFrame small = c.frameFor(EncryptionLevel.ONE_RTT, FrameCodec.encodedLength(full) - 1);
        assertEquals("", small.reason());
        assertEquals(TransportError.PROTOCOL_VIOLATION.code, small.errorCode());
    }

    @Test
    void anApplicationClosingPeriodStartsWhenTheFrameLeaves() {
        ConnectionClose c = new ConnectionClose();
        c.closing(ConnectionClose.applicationClose(0, ""), Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, c.deadline());
        c.onPacketSent(5_000);
        assertEquals(5_000, c.deadline());
        c.onPacketSent(9_000); // sent again: the period does not move
        assertEquals(5_000, c.deadline());
    }

    @Test
    void theFirstCloseReportedCounts() {
        ConnectionClose c = new ConnectionClose();
        assertTrue(c.report(0x0a, false, null, false));
        assertFalse(c.report(0x42, true, "later", true));
        assertTrue(c.reported());
        assertEquals(0x0a, c.errorCode());
        assertFalse(c.application());
        assertEquals("", c.reason());
        assertFalse(c.local());
    }
}
