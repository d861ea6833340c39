package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.ack;
import static org.pacelab.quic.cc.Packets.loss;
import static org.pacelab.quic.cc.Packets.packet;
import static org.pacelab.quic.cc.Packets.packets;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.recovery.RttEstimator;

/**
 * The three {@code --rollback} modes. Common history: slow start to 100 segments, a first loss at 1 s (the
 * exit from slow start), one congestion-avoidance ACK at 1.1 s, then the congestion event under test at
 * 2 s for packets sent at 1.9 s.
 */
class CubicRollbackTest {
    private static final int MDS = 1200;
    private final RttEstimator rtt = Packets.rtt(100 * MS);

    /** The controller's state just before the congestion event under test. */
    private record Before(double cwnd, double cwndPrior, long ssthresh, double wMax, double k, double wEst) {
        static Before of(CubicController cc) {
            return new Before(cc.exactCongestionWindow(), cc.cwndPrior(), cc.slowStartThreshold(), cc.wMax(), cc.k(),
                    cc.wEst());
        }
    }

    private CubicController inCongestionAvoidance(CubicRollback mode) {
        CubicController cc = new CubicController(MDS, null, mode, true);
        cc.onAck(ack(100 * MS, packets(1000, 90, 0, MDS), rtt));
        cc.onLoss(loss(1000 * MS, List.of(packet(1, 900 * MS, MDS)), rtt, false));
        cc.onAck(ack(1100 * MS, List.of(packet(2, 1001 * MS, MDS)), rtt));
        assertEquals("congestion_avoidance", cc.state());
        return cc;
    }

    @Test
    void offNeverRestores() {
        CubicController cc = inCongestionAvoidance(CubicRollback.OFF);
        Before b = Before.of(cc);
        List<PacketInfo> lost = packets(10, 2, 1900 * MS, MDS);
        cc.onLoss(loss(2000 * MS, lost, rtt, false));
        cc.onSpuriousLoss(2050 * MS, lost.get(0));
        cc.onSpuriousLoss(2050 * MS, lost.get(1));
        cc.onAck(ack(2200 * MS, List.of(packet(20, 2001 * MS, MDS)), rtt));
        assertEquals((long) (b.cwnd * 0.7), cc.slowStartThreshold());
        assertTrue(cc.exactCongestionWindow() < b.cwnd * 0.71);
        assertEquals(0, cc.rollbacks());
    }

    @Test
    void rfc9438RestoresEverySavedVariableOnceTheWholeEpisodeWasSpurious() {
        CubicController cc = inCongestionAvoidance(CubicRollback.RFC9438);
        Before b = Before.of(cc);
        List<PacketInfo> lost = packets(10, 2, 1900 * MS, MDS);
        cc.onLoss(loss(2000 * MS, lost, rtt, false));
        assertEquals((long) (b.cwnd * 0.7), cc.congestionWindow());
        cc.onSpuriousLoss(2050 * MS, lost.get(0));
        assertEquals((long) (b.cwnd * 0.7), cc.congestionWindow(), "one of two losses is still real");
        cc.onSpuriousLoss(2060 * MS, lost.get(1));
        assertEquals(b, Before.of(cc));
        assertEquals(1, cc.rollbacks());
        // the episode is closed: acknowledging its packets again changes nothing
        cc.onSpuriousLoss(2070 * MS, lost.get(1));
        assertEquals(1, cc.rollbacks());
    }

    @Test
    void rfc9438IgnoresSpuriousLossesOfAnOlderEpisode() {
        CubicController cc = inCongestionAvoidance(CubicRollback.RFC9438);
        PacketInfo firstEpisode = packet(1, 900 * MS, MDS);
        cc.onLoss(loss(2000 * MS, List.of(packet(10, 1900 * MS, MDS)), rtt, false));
        long reduced = cc.congestionWindow();
        cc.onSpuriousLoss(2050 * MS, firstEpisode);
        assertEquals(reduced, cc.congestionWindow());
        assertEquals(0, cc.rollbacks());
    }

    @Test
    void rfc9438KeepsTheCurrentStateOnceTheWindowHasRegrownPastCwndPrior() {
        CubicController cc = inCongestionAvoidance(CubicRollback.RFC9438);
        Before b = Before.of(cc);
        PacketInfo lost = packet(10, 1900 * MS, MDS);
        cc.onLoss(loss(2000 * MS, List.of(lost), rtt, false));
        // 8 s of ACKs: W_cubic passes W_max again (K is about 3.7 s)
        for (int i = 0; i < 1600; i++) {
            long now = 2100 * MS + i * 5 * MS;
            cc.onAck(ack(now, List.of(packet(100 + i, now - 99 * MS, MDS)), rtt));
        }
        double regrown = cc.exactCongestionWindow();
        assertTrue(regrown > b.cwnd);
        cc.onSpuriousLoss(10_100 * MS, lost);
        assertEquals(regrown, cc.exactCongestionWindow());
        assertEquals(0, cc.rollbacks());
    }

    @Test
    void quicheRollsBackOnTheFirstAckAfterRecoveryWhenFewPacketsWereLost() {
        CubicController cc = inCongestionAvoidance(CubicRollback.QUICHE);
        Before b = Before.of(cc);
        cc.onLoss(loss(2000 * MS, List.of(packet(10, 1900 * MS, MDS)), rtt, false));
        long reduced = cc.congestionWindow();
        // threshold = max(2, floor(cwnd / mds) * 20 / 100) = max(2, 49 * 20 / 100) = 9 > 1 lost packet;
        // ACKs of packets sent before the congestion event are still in recovery: no rollback yet
        cc.onAck(ack(2010 * MS, List.of(packet(11, 1950 * MS, MDS)), rtt));
        assertEquals(reduced, cc.congestionWindow());
        assertEquals(0, cc.rollbacks());
        cc.onAck(ack(2110 * MS, List.of(packet(30, 2001 * MS, MDS)), rtt));
        assertEquals(1, cc.rollbacks());
        assertEquals(b.cwnd, cc.exactCongestionWindow());
        assertEquals(b.ssthresh, cc.slowStartThreshold());
        assertEquals(b.wMax, cc.wMax());
        assertEquals(b.k, cc.k());
        // the recovery period of the undone event is gone: a loss from the same flight is a new event
        cc.onLoss(loss(2120 * MS, List.of(packet(12, 1960 * MS, MDS)), rtt, false));
        assertEquals((long) (b.cwnd * 0.7), cc.congestionWindow());
        cc.onAck(ack(2230 * MS, List.of(packet(31, 2121 * MS, MDS)), rtt));
        assertEquals(2, cc.rollbacks(), "the sawtooth: reduce, restore, reduce, restore");
        assertEquals(b.cwnd, cc.exactCongestionWindow());
    }

    @Test
    void quicheKeepsTheReductionWhenLossesReachTheThreshold() {
        CubicController cc = inCongestionAvoidance(CubicRollback.QUICHE);
        cc.onLoss(loss(2000 * MS, packets(10, 9, 1900 * MS, MDS), rtt, false));
        long reduced = cc.congestionWindow();
        cc.onAck(ack(2110 * MS, List.of(packet(30, 2001 * MS, MDS)), rtt));
        assertEquals(0, cc.rollbacks());
        assertTrue(cc.congestionWindow() >= reduced && cc.congestionWindow() < reduced + MDS);
    }

    @Test
    void quicheNeverRollsBackIntoSlowStart() {
        CubicController cc = new CubicController(MDS, null, CubicRollback.QUICHE, true);
        cc.onAck(ack(100 * MS, packets(1000, 90, 0, MDS), rtt));
        cc.onLoss(loss(1000 * MS, List.of(packet(1, 900 * MS, MDS)), rtt, false));
        cc.onAck(ack(1100 * MS, List.of(packet(2, 1001 * MS, MDS)), rtt));
        assertEquals(0, cc.rollbacks());
        assertEquals(84_000, cc.slowStartThreshold());
    }

    @Test
    void rollbackModesParseWithTheirOptionNames() {
        assertEquals(CubicRollback.QUICHE, CubicRollback.parse("quiche"));
        assertEquals(CubicRollback.RFC9438, CubicRollback.parse(" RFC9438 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CubicRollback.parse("yes"));
        assertEquals("--rollback: 'yes' is not a rollback mode; valid values are off, rfc9438, quiche.", e.getMessage());
    }
}
