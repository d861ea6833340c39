package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * CUBIC's window against RFC 9438 computed independently here, in segments as the RFC writes it
 * (the controller works in bytes).
 */
class CubicControllerTest {
    private static final int MDS = 1200;
    private static final double C = 0.4;
    private static final double BETA = 0.7;
    private static final double ALPHA = 3 * (1 - BETA) / (1 + BETA);

    /** RFC 9438 §4.2-§4.5 per new ACK of one segment, in segments and seconds. */
    private static final class Reference {
        final double wMax;
        final double k;
        final double cwndPrior;
        final double tEpoch;
        final double rtt;
        double cwnd;
        double wEst;
        double alpha = ALPHA;

        Reference(double wMax, double cwndPrior, double cwndEpoch, double tEpoch, double rtt) {
            this.wMax = wMax;
            this.cwndPrior = cwndPrior;
            this.cwnd = cwndEpoch;
            this.wEst = cwndEpoch;
            this.k = Math.cbrt((wMax - cwndEpoch) / C);                  // eq. 2
            this.tEpoch = tEpoch;
            this.rtt = rtt;
        }

        double wCubic(double t) {
            return C * Math.pow(t - k, 3) + wMax;                        // eq. 1
        }

        void ackOneSegment(double now) {
            double t = now - tEpoch;
            double target = wCubic(t + rtt);
            if (target < cwnd) {
                target = cwnd;
            } else if (target > 1.5 * cwnd) {
                target = 1.5 * cwnd;
            }
            wEst = wEst + alpha * 1 / cwnd;                              // eq. 4
            if (wEst >= cwndPrior) {
                alpha = 1;
            }
            if (wCubic(t) < wEst) {
                cwnd = Math.max(cwnd, wEst);                             // Reno-friendly region
            } else {
                cwnd = cwnd + (target - cwnd) / cwnd;                    // concave / convex regions
            }
        }
    }

    /** Slow start from the initial 10 segments to {@code segments} segments. */
    private static CubicController grownTo(int segments, CubicRollback rollback, boolean fastConvergence,
                                           RttEstimator rtt) {
        CubicController cc = new CubicController(MDS, null, rollback, fastConvergence);
        cc.onAck(ack(100 * MS, packets(1000, segments - 10, 0, MDS), rtt));
        assertEquals(segments * (long) MDS, cc.congestionWindow());
        return cc;
    }

    @Test
    void windowFollowsWCubicInTheConcaveAndConvexRegions() {
        RttEstimator rtt = Packets.rtt(100 * MS);
        CubicController cc = grownTo(100, CubicRollback.OFF, true, rtt);
        cc.onLoss(loss(1000 * MS, List.of(packet(1, 900 * MS, MDS)), rtt, false));
        assertEquals(84_000, cc.congestionWindow());
        assertEquals(84_000, cc.slowStartThreshold());
        assertEquals(120_000, cc.wMax(), 1e-9);
        // ACKs every 2 ms from 1.1 s, each for one segment sent after the congestion event
        Reference ref = new Reference(100, 100, 70, 1.1, 0.1);
        assertEquals(Math.cbrt(75), ref.k, 1e-12);
        boolean sawConcave = false;
        boolean sawConvex = false;
        for (int i = 0; i < 3000; i++) {
            long now = 1100 * MS + i * 2 * MS;
            cc.onAck(ack(now, List.of(packet(2000 + i, now - 99 * MS, MDS)), rtt));
            ref.ackOneSegment(now / 1e9);
            assertEquals(ref.cwnd, cc.exactCongestionWindow() / MDS, 1e-9 * ref.cwnd, "ACK " + i);
            assertEquals(ref.wEst, cc.wEst() / MDS, 1e-9 * ref.wEst, "W_est at ACK " + i);
            sawConcave |= ref.cwnd < ref.wMax && ref.wCubic(now / 1e9 - 1.1) >= ref.wEst;
            sawConvex |= ref.cwnd > ref.wMax && ref.wCubic(now / 1e9 - 1.1) >= ref.wEst;
        }
        assertTrue(sawConcave && sawConvex, "the stream crossed W_max through both regions");
        assertEquals(Math.cbrt(75), cc.k(), 1e-9);
        // around t = K the window has come back to the plateau W_max
        CubicController probe = grownTo(100, CubicRollback.OFF, true, rtt);
        probe.onLoss(loss(1000 * MS, List.of(packet(1, 900 * MS, MDS)), rtt, false));
        long tK = 1100 * MS + (long) (Math.cbrt(75) * 1e9);
        for (long now = 1100 * MS; now <= tK; now += 2 * MS) {
            probe.onAck(ack(now, List.of(packet(now, now - 99 * MS, MDS)), rtt));
        }
        assertEquals(100.0, probe.exactCongestionWindow() / MDS, 1.0);
    }

    @Test
    void renoFriendlyRegionSetsTheWindowToWEst() {
        RttEstimator rtt = Packets.rtt(10 * MS);
        CubicController cc = grownTo(24, CubicRollback.OFF, true, rtt);
        cc.onLoss(loss(1000 * MS, List.of(packet(1, 990 * MS, MDS)), rtt, false));
        assertEquals(20_160, cc.congestionWindow());                // 28 800 * 0.7
        Reference ref = new Reference(24, 24, 16.8, 1.01, 0.01);
        boolean renoFriendly = false;
        for (int i = 0; i < 500; i++) {
            long now = 1010 * MS + i * MS;
            cc.onAck(ack(now, List.of(packet(2000 + i, now - 9 * MS, MDS)), rtt));
            ref.ackOneSegment(now / 1e9);
            assertEquals(ref.cwnd, cc.exactCongestionWindow() / MDS, 1e-9 * ref.cwnd, "ACK " + i);
            renoFriendly |= ref.wCubic(now / 1e9 - 1.01) < ref.wEst;
        }
        assertTrue(renoFriendly);
        assertEquals(cc.wEst(), cc.exactCongestionWindow(), 1e-6, "cwnd = W_est in the Reno-friendly region");
        assertTrue(cc.wEst() > 24 * MDS, "W_est passed cwnd_prior, so alpha became 1");
        assertEquals(1.0, ref.alpha);
    }

    @Test
    void fastConvergenceLowersWMaxWhenTheWindowShrinks() {
        for (boolean fc : new boolean[] {true, false}) {
            RttEstimator rtt = Packets.rtt(100 * MS);
            CubicController cc = grownTo(100, CubicRollback.OFF, fc, rtt);
            cc.onLoss(loss(1000 * MS, List.of(packet(1, 900 * MS, MDS)), rtt, false));
            cc.onAck(ack(1100 * MS, List.of(packet(2, 1001 * MS, MDS)), rtt));
            double before = cc.exactCongestionWindow();
            assertTrue(before < 120_000);
            cc.onLoss(loss(1200 * MS, List.of(packet(3, 1101 * MS, MDS)), rtt, false));
            double expectedWMax = fc ? before * (1 + BETA) / 2 : before;
            assertEquals(expectedWMax, cc.wMax(), 1e-6, "fast convergence " + fc);
            assertEquals((long) (before * BETA), cc.congestionWindow());
            assertEquals(before, cc.cwndPrior(), 1e-9);
        }
    }

    @Test
    void afterPersistentCongestionTheEpochStartsWithKZeroAtTheCurrentWindow() {
        RttEstimator rtt = Packets.rtt(100 * MS);
        CubicController cc = grownTo(20, CubicRollback.OFF, true, rtt);
        cc.onLoss(loss(1000 * MS, packets(1, 3, 500 * MS, MDS), rtt, true));
        assertEquals(2400, cc.congestionWindow());
        assertEquals(16_800, cc.slowStartThreshold());
        assertEquals(0, cc.wMax());
        // slow start back to ssthresh, then the first congestion-avoidance ACK starts the epoch
        cc.onAck(ack(1200 * MS, packets(10, 12, 1100 * MS, MDS), rtt));
        assertEquals(16_800, cc.congestionWindow());
        cc.onAck(ack(1300 * MS, List.of(packet(30, 1200 * MS, MDS)), rtt));
        assertEquals(0.0, cc.k());
        assertEquals(16_800, cc.wMax(), 1e-9);
    }

    @Test
    void hystartExitSetsCwndPriorAndAnEpochWithKZero() {
        HyStartPlusPlus hs = new HyStartPlusPlus(HyStartPlusPlus.INFINITE_L);
        CubicController cc = new CubicController(MDS, hs, CubicRollback.OFF, true);
        long pn = 0;
        long now = 0;
        for (long rttMs : new long[] {100, 100, 113, 113, 113, 113, 113, 113, 113}) {
            long window = cc.congestionWindow() / MDS;
            List<PacketInfo> sent = packets(pn, (int) window, now, MDS);
            pn += window;
            for (PacketInfo p : sent) {
                cc.onPacketSent(now, p, 0);
            }
            now += rttMs * MS;
            RttEstimator rtt = Packets.rtt(rttMs * MS);
            for (PacketInfo p : sent) {
                boolean wasSlowStart = cc.inSlowStart();
                cc.onAck(ack(now, List.of(p), rtt));
                if (wasSlowStart && !cc.inSlowStart()) {
                    assertEquals(cc.exactCongestionWindow(), cc.cwndPrior(), 1e-9);
                    double atExit = cc.exactCongestionWindow();
                    cc.onAck(ack(now, List.of(packet(pn++, now - 1, MDS)), rtt));
                    assertEquals(0.0, cc.k());
                    assertEquals(atExit, cc.wMax(), 1e-9);
                    return;
                }
            }
        }
        throw new AssertionError("HyStart++ did not end slow start");
    }
}
