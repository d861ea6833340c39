package org.pacelab.quic.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.AckFrame;

/** When the receiver of the application space acknowledges (RFC 9000 §13.2; draft-ietf-quic-ack-frequency §6). */
class AckTrackerTest {
    private static final long MS = 1_000_000L;

    private static AckTracker tracker() {
        return new AckTracker(false, 2, 25 * MS);
    }

    @Test
    void byDefaultEverySecondPacketOrTheDelayOrReorderingCallsForAnAck() {
        AckTracker t = tracker();
        t.onPacketReceived(0, true, 0);
        assertFalse(t.ackDue(0));
        assertEquals(25 * MS, t.ackDeadline());
        t.onPacketReceived(1, true, MS);
        assertTrue(t.ackDue(MS));
        t.onAckSent();
        // a gap: packet 3 arrives before 2
        t.onPacketReceived(3, true, 2 * MS);
        assertTrue(t.ackDue(2 * MS));
    }

    @Test
    void aLostAckIsPiggybackedOnTheNextPacketNotSentAlone() {
        AckTracker t = tracker();
        t.onPacketReceived(0, true, 0);
        t.onPacketReceived(1, true, 0);
        t.buildAck(0, 3);
        t.onAckSent();
        assertFalse(t.hasNewAcks(), "nothing new after the ACK went out");
        t.onAckLost();
        assertTrue(t.hasNewAcks(), "the current ACK rides on the next packet");
        assertFalse(t.ackDue(MS), "but a lost ACK alone does not call for an ACK-only packet");
        assertEquals(1, t.buildAck(MS, 3).largestAcknowledged());
    }

    /**
     * RFC 9000 §13.2.1: "When only non-ack-eliciting packets need to be acknowledged, an endpoint MAY choose not to send
     * an ACK frame with outgoing frames until an ack-eliciting packet has been received." A bulk sender receives the
     * peer's ACK-only packets; its data packets carry no ACK for them, but the next ACK covers them.
     */
    @Test
    void aPeersAckOnlyPacketsRideOnNoPacketUntilAnAckElicitingOneArrives() {
        AckTracker t = tracker();
        t.onPacketReceived(0, true, 0);
        t.onPacketReceived(1, true, 0);
        t.buildAck(0, 3);
        t.onAckSent();
        for (int pn = 2; pn < 40; pn++) {
            t.onPacketReceived(pn, false, pn * MS);
            assertFalse(t.hasNewAcks(), "ACK-only packet " + pn + " is not acknowledged on its own");
            assertFalse(t.ackDue(pn * MS));
        }
        assertEquals(Long.MAX_VALUE, t.ackDeadline(), "nor does it arm the ACK timer");
        t.onPacketReceived(40, true, 40 * MS);
        assertTrue(t.hasNewAcks(), "an ack-eliciting packet (a MAX_DATA) is acknowledged on the next packet");
        AckFrame ack = t.buildAck(40 * MS, 3);
        assertEquals(40, ack.largestAcknowledged());
        assertEquals(1, ack.rangeCount(), "one range 0..40: the ACK-only packets are in it");
        assertEquals(0, ack.ranges()[1]);
    }

    /** Initial and Handshake spaces keep acknowledging whatever arrived on the next packet. */
    @Test
    void aHandshakeSpaceStillPiggybacksAnAckForANonAckElicitingPacket() {
        AckTracker t = new AckTracker(true, 1, 25 * MS);
        t.onPacketReceived(0, false, 0);
        assertTrue(t.hasNewAcks());
    }

    @Test
    void anApplicationAckReportsItsDelayScaledByTheExponent() {
        AckTracker t = tracker();
        t.onPacketReceived(0, true, 0);
        assertEquals(1000 >> 3, t.buildAck(MS, 3).ackDelay(), "1 ms = 1000 µs, sent as 1000 >> 3");
    }

    /** RFC 9000 §19.3: "a sender SHOULD send a value of 0" in Initial and Handshake packets. */
    @Test
    void anInitialOrHandshakeAckReportsNoDelayWhateverTheWait() {
        AckTracker t = new AckTracker(true, 1, 25 * MS);
        t.onPacketReceived(0, true, 0);
        AckFrame ack = t.buildHandshakeAck();
        assertEquals(0, ack.largestAcknowledged());
        assertEquals(0, ack.ackDelay(), "no ACK Delay, though the packet arrived long ago");
    }

    @Test
    void aLostAckBeforeAnythingArrivedChangesNothing() {
        AckTracker t = tracker();
        t.onAckLost();
        assertFalse(t.hasNewAcks());
    }

    /**
     * Initial and Handshake spaces acknowledge every ack-eliciting packet at once: a lost ACK is not repeated (its ACK
     * Delay would have grown by the wait, RFC 9000 §13.3); the peer's next packet brings a fresh one.
     */
    @Test
    void aLostAckOfAnInitialOrHandshakeSpaceIsNotRepeatedButTheNextPacketIsAcknowledged() {
        AckTracker t = new AckTracker(true, 1, 25 * MS);
        t.onPacketReceived(0, true, 0);
        t.onPacketReceived(1, true, 0);
        t.buildHandshakeAck();
        t.onAckSent();
        t.onAckLost();
        assertFalse(t.hasNewAcks(), "the old ACK rides on no probe");
        assertFalse(t.ackDue(5_000 * MS));
        t.onPacketReceived(2, true, 5_000 * MS);
        assertTrue(t.ackDue(5_000 * MS), "a new packet is acknowledged at once");
        AckFrame ack = t.buildHandshakeAck();
        assertEquals(2, ack.largestAcknowledged());
        assertEquals(0, ack.ackDelay(), "no wait in its ACK Delay");
    }

    @Test
    void ackFrequencyRaisesTheRatioAndSetsTheDelay() {
        AckTracker t = tracker();
        assertTrue(t.onAckFrequency(0, 9, 5 * MS, 1));
        for (int pn = 0; pn < 9; pn++) {
            t.onPacketReceived(pn, true, pn * 10_000L);
            assertFalse(t.ackDue(pn * 10_000L), "after " + (pn + 1) + " packets");
        }
        // more than the threshold of 9: the tenth packet calls for an ACK
        t.onPacketReceived(9, true, 100_000L);
        assertTrue(t.ackDue(100_000L));
        t.onAckSent();
        t.onPacketReceived(10, true, MS);
        assertEquals(6 * MS, t.ackDeadline(), "the requested 5 ms from the first unacknowledged packet");
    }

    @Test
    void olderAckFrequencyFramesAreIgnored() {
        AckTracker t = tracker();
        assertTrue(t.onAckFrequency(3, 9, 5 * MS, 1));
        assertFalse(t.onAckFrequency(2, 0, 1 * MS, 1));
        assertFalse(t.onAckFrequency(3, 0, 1 * MS, 1));
        assertEquals(10, t.ackElicitingThreshold());
        assertTrue(t.onAckFrequency(4, 0, 1 * MS, 1));
        assertEquals(1, t.ackElicitingThreshold());
    }

    @Test
    void reorderingThresholdZeroNeverAcksForReordering() {
        AckTracker t = tracker();
        t.onAckFrequency(0, 9, 25 * MS, 0);
        t.onPacketReceived(0, true, 0);
        t.onPacketReceived(5, true, 0);
        t.onPacketReceived(2, true, 0);
        assertFalse(t.ackDue(0));
    }

    @Test
    void reorderingThresholdThreeAcksWhenAGapIsThreeBehind() {
        AckTracker t = tracker();
        t.onAckFrequency(0, 9, 25 * MS, 3);
        t.onPacketReceived(0, true, 0);
        t.onPacketReceived(1, true, 0);
        // 2 is missing; 3 and 4 are not yet three beyond it
        t.onPacketReceived(3, true, 0);
        t.onPacketReceived(4, true, 0);
        assertFalse(t.ackDue(0));
        // 5 is three beyond the missing 2: the sender could declare 2 lost now, so tell it
        t.onPacketReceived(5, true, 0);
        assertTrue(t.ackDue(0));
        t.onAckSent();
        // 2 is still missing but was reported; a new gap at 7 starts counting again
        t.onPacketReceived(6, true, 0);
        t.onPacketReceived(8, true, 0);
        t.onPacketReceived(9, true, 0);
        assertFalse(t.ackDue(0));
        t.onPacketReceived(10, true, 0);
        assertTrue(t.ackDue(0));
    }

    @Test
    void immediateAckIsHonoured() {
        AckTracker t = tracker();
        t.onAckFrequency(0, 9, 25 * MS, 1);
        t.onPacketReceived(0, true, 0);
        assertFalse(t.ackDue(0));
        t.requestImmediateAck();
        assertTrue(t.ackDue(0));
    }

    @Test
    void aPacketOfARangeDroppedBeyondSixtyFourIsStillADuplicate() {
        // RFC 9000 §12.3: a packet number whose range the ACK frames no longer carry (§13.2.3) must not be taken for
        // a new packet: its frames would be processed twice
        AckTracker t = tracker();
        for (long pn = 0; pn <= 2 * 64; pn += 2) {
            // 65 ranges of one packet each, 0, 2, ..., 128: the lowest, {0}, is dropped
            t.onPacketReceived(pn, true, 0);
        }
        assertEquals(64, t.buildAck(0, 3).ranges().length / 2, "the ACK frame holds 64 ranges");
        assertEquals(2, t.buildAck(0, 3).ranges()[127], "the lowest range kept is {2}");
        assertTrue(t.isDuplicate(0), "packet 0 was received: a copy of it is a duplicate");
        assertTrue(t.isDuplicate(1), "below the lowest range kept: treated as received");
        assertFalse(t.isDuplicate(3), "a gap between kept ranges is still open");
        assertFalse(t.isDuplicate(129), "above every range: new");
    }
}
