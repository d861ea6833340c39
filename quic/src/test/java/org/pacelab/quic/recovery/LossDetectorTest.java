package org.pacelab.quic.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.PacketSpace;

/** RFC 9002 loss detection on scripted sends and ACKs (all times in ms, converted to ns). */
class LossDetectorTest {
    private static final long MS = 1_000_000L;

    private static SentPacket packet(long pn, long sentMs) {
        return new SentPacket(PacketSpace.APPLICATION, pn, sentMs * MS, sentMs * MS, 1200, true, true, List.of());
    }

    @Test
    void packetThresholdDeclaresLossThreePacketsBehind() {
        LossDetector d = new LossDetector(new RttEstimator());
        for (int pn = 0; pn < 5; pn++) {
            d.onPacketSent(packet(pn, pn));
        }
        // ACK 4 only: 0 and 1 are >= 3 behind (RFC 9002 §6.1.1), 2 and 3 wait for the time threshold
        LossDetector.AckResult r = d.onAck(PacketSpace.APPLICATION, new long[] {4, 4}, 0, 25 * MS, true, 100 * MS);
        assertEquals(List.of(0L, 1L), r.lost().stream().map(p -> p.packetNumber).toList());
        assertEquals(1, r.newlyAcked().size());
        assertEquals(2 * 1200, d.bytesInFlight());
        assertTrue(d.earliestLossTime() > 0, "a loss timer for packets 2 and 3");
    }

    @Test
    void timeThresholdIsNineEighthsOfTheRtt() {
        RttEstimator rtt = new RttEstimator();
        LossDetector d = new LossDetector(rtt);
        d.onPacketSent(packet(0, 0));
        d.onPacketSent(packet(1, 11));
        d.onPacketSent(packet(2, 20));
        // ACK 2 at 100 ms: RTT sample 80 ms, loss delay 9/8 * 80 = 90 ms, so packets sent at or before 10 ms
        // are lost (packet 0) and packet 1, sent at 11 ms, becomes lost at 101 ms
        LossDetector.AckResult r = d.onAck(PacketSpace.APPLICATION, new long[] {2, 2}, 0, 25 * MS, true, 100 * MS);
        assertEquals(80 * MS, rtt.latestRtt());
        assertEquals(List.of(0L), r.lost().stream().map(p -> p.packetNumber).toList());
        assertEquals((11 + 90) * MS, d.earliestLossTime());
        assertNull(d.onLossTimer(100 * MS));
        LossDetector.TimedLoss timed = d.onLossTimer(101 * MS);
        assertNotNull(timed);
        assertEquals(List.of(1L), timed.lost().stream().map(p -> p.packetNumber).toList());
    }

    @Test
    void ptoIsSmoothedRttPlusFourVarPlusMaxAckDelayAndBacksOff() {
        RttEstimator rtt = new RttEstimator();
        LossDetector d = new LossDetector(rtt);
        d.onPacketSent(packet(0, 0));
        d.onAck(PacketSpace.APPLICATION, new long[] {0, 0}, 0, 25 * MS, true, 40 * MS); // srtt 40, var 20
        d.onPacketSent(packet(1, 50));
        LossDetector.Pto pto = d.ptoTimeAndSpace(true, 25 * MS, false, true, 50 * MS);
        assertEquals((50 + 40 + 4 * 20 + 25) * MS, pto.time());
        d.onPtoExpired();
        pto = d.ptoTimeAndSpace(true, 25 * MS, false, true, 50 * MS);
        assertEquals((50 + 2 * (40 + 80) + 2 * 25) * MS, pto.time());
    }

    @Test
    void persistentCongestionNeedsASpanLongerThanThreePtosWithoutAcks() {
        RttEstimator rtt = new RttEstimator();
        LossDetector d = new LossDetector(rtt);
        d.onPacketSent(packet(0, 0));
        d.onAck(PacketSpace.APPLICATION, new long[] {0, 0}, 0, 0, true, 10 * MS); // srtt 10, var 5 → PC 3*(10+20)=90
        for (int pn = 1; pn <= 8; pn++) {
            d.onPacketSent(packet(pn, 10 + (pn - 1) * 20L)); // 10, 30, ... 150
        }
        d.onPacketSent(packet(9, 400));
        LossDetector.AckResult r = d.onAck(PacketSpace.APPLICATION, new long[] {9, 9}, 0, 0, true, 410 * MS);
        assertEquals(8, r.lost().size());
        assertTrue(r.persistentCongestion(), "losses spanning 140 ms > 90 ms");
    }

    @Test
    void acknowledgingADeclaredLostPacketReportsASpuriousLoss() {
        LossDetector d = new LossDetector(new RttEstimator());
        for (int pn = 0; pn < 5; pn++) {
            d.onPacketSent(packet(pn, pn));
        }
        d.onAck(PacketSpace.APPLICATION, new long[] {4, 4}, 0, 0, true, 100 * MS);
        LossDetector.AckResult late = d.onAck(PacketSpace.APPLICATION, new long[] {4, 0}, 0, 0, true, 101 * MS);
        assertEquals(List.of(0L, 1L), late.spuriouslyLost().stream().map(p -> p.packetNumber).toList());
        assertFalse(late.newlyAcked().isEmpty());
    }

    @Test
    void discardingASpaceRemovesItsBytesFromFlight() {
        LossDetector d = new LossDetector(new RttEstimator());
        d.onPacketSent(new SentPacket(PacketSpace.INITIAL, 0, 0, 0, 1200, true, true, List.of()));
        assertEquals(1200, d.bytesInFlight());
        d.discardSpace(PacketSpace.INITIAL);
        assertEquals(0, d.bytesInFlight());
        assertTrue(d.isDiscarded(PacketSpace.INITIAL));
        assertTrue(d.noAckElicitingInFlight());
    }
}
