package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.ack;
import static org.pacelab.quic.cc.Packets.loss;
import static org.pacelab.quic.cc.Packets.packet;
import static org.pacelab.quic.cc.Packets.packets;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.recovery.RttEstimator;

/** RFC 9002 §7 and Appendix B scenarios. */
class NewRenoControllerTest {
    private static final int MDS = 1200;
    private final RttEstimator rtt = Packets.rtt(100 * MS);

    @Test
    void initialAndMinimumWindowsFollowSection7_2() {
        assertEquals(12_000, WindowBounds.initialWindow(1200));   // 10 * 1200
        assertEquals(14_720, WindowBounds.initialWindow(1500));   // min(15000, max(14720, 3000))
        assertEquals(18_000, WindowBounds.initialWindow(9000));   // min(90000, max(14720, 18000))
        assertEquals(2400, WindowBounds.minimumWindow(1200));
        NewRenoController cc = new NewRenoController(MDS, null);
        assertEquals(12_000, cc.congestionWindow());
        assertEquals(Long.MAX_VALUE, cc.slowStartThreshold());
        assertEquals("slow_start", cc.state());
    }

    @Test
    void slowStartGrowsByTheBytesAcknowledged() {
        NewRenoController cc = new NewRenoController(MDS, null);
        cc.onAck(ack(100 * MS, packets(0, 10, 0, MDS), rtt));
        assertEquals(24_000, cc.congestionWindow());
        cc.onAck(ack(101 * MS, List.of(packet(10, MS, 500)), rtt));
        assertEquals(24_500, cc.congestionWindow());
    }

    @Test
    void congestionEventHalvesOncePerRecoveryPeriod() {
        NewRenoController cc = new NewRenoController(MDS, null);
        cc.onAck(ack(100 * MS, packets(0, 10, 0, MDS), rtt));           // 24 000
        cc.onLoss(loss(200 * MS, List.of(packet(12, 110 * MS, MDS)), rtt, false));
        assertEquals(12_000, cc.slowStartThreshold());
        assertEquals(12_000, cc.congestionWindow());
        assertEquals("recovery", cc.state());
        // a later loss of a packet sent before the recovery period started is part of the same event
        cc.onLoss(loss(210 * MS, List.of(packet(15, 150 * MS, MDS)), rtt, false));
        assertEquals(12_000, cc.congestionWindow());
        // packets sent before recovery started do not grow the window
        cc.onAck(ack(220 * MS, packets(16, 5, 190 * MS, MDS), rtt));
        assertEquals(12_000, cc.congestionWindow());
        assertEquals("recovery", cc.state());
        // the first packet sent after the start ends recovery and grows in congestion avoidance:
        // 1200 * 1200 / 12000 = 120 bytes
        cc.onAck(ack(320 * MS, List.of(packet(30, 201 * MS, MDS)), rtt));
        assertEquals(12_120, cc.congestionWindow());
        assertEquals("congestion_avoidance", cc.state());
        // a loss of a packet sent after the recovery start is a new congestion event
        cc.onLoss(loss(330 * MS, List.of(packet(31, 202 * MS, MDS)), rtt, false));
        assertEquals(6060, cc.congestionWindow());
    }

    @Test
    void congestionAvoidanceAddsAtMostOneDatagramPerWindow() {
        NewRenoController cc = new NewRenoController(MDS, null);
        cc.onLoss(loss(10 * MS, List.of(packet(0, 0, MDS)), rtt, false));    // ssthresh = cwnd = 6000
        assertEquals(6000, cc.congestionWindow());
        long cwnd = 6000;
        long t = 20 * MS;
        for (int i = 0; i < 5; i++) {
            cc.onAck(ack(t + i, List.of(packet(10 + i, t, MDS)), rtt));
            cwnd += (long) MDS * MDS / cwnd;                                      // B.5, integer arithmetic
        }
        assertEquals(cwnd, cc.congestionWindow());
        assertEquals(6000 + 240 + 230 + 222 + 215 + 208, cc.congestionWindow());
    }

    @Test
    void windowNeverFallsBelowTheMinimum() {
        NewRenoController cc = new NewRenoController(MDS, null);
        long t = 0;
        for (int i = 0; i < 6; i++) {
            t += 10 * MS;
            cc.onLoss(loss(t, List.of(packet(i, t - 1, MDS)), rtt, false));
        }
        assertEquals(2400, cc.congestionWindow());
        assertTrue(cc.slowStartThreshold() < 2400);
    }

    @Test
    void persistentCongestionCollapsesToTheMinimumWindowAndEndsRecovery() {
        NewRenoController cc = new NewRenoController(MDS, null);
        cc.onAck(ack(100 * MS, packets(0, 30, 0, MDS), rtt));            // 48 000
        cc.onLoss(loss(500 * MS, packets(40, 3, 200 * MS, MDS), rtt, true));
        assertEquals(2400, cc.congestionWindow());
        assertEquals(24_000, cc.slowStartThreshold());
        assertEquals("slow_start", cc.state());
        // recovery cleared: a loss of a packet sent at 300 ms (before 500 ms) is a new congestion event
        cc.onLoss(loss(600 * MS, List.of(packet(50, 300 * MS, MDS)), rtt, false));
        assertEquals(2400, cc.congestionWindow());
        assertEquals(1200, cc.slowStartThreshold());
    }

    @Test
    void noGrowthWhileApplicationLimited() {
        NewRenoController cc = new NewRenoController(MDS, null);
        cc.onAck(new AckEvent(100 * MS, packets(0, 5, 0, MDS), rtt.estimates(), 6000, 0, null, true, 0));
        assertEquals(12_000, cc.congestionWindow());
        assertEquals("application_limited", cc.state());
        cc.onAck(ack(101 * MS, packets(5, 5, 0, MDS), rtt));
        assertEquals(18_000, cc.congestionWindow());
        assertFalse(cc.state().equals("application_limited"));
    }
}
