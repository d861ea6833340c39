package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.packet;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.SlowStartPath.Noise;

/**
 * onset-bdp-queue's first cut taken gradually by CUBIC ({@link GradualCut}, RFC 6937's proportional rate reduction):
 * the window's arithmetic on scripted ACKs, then {@link SlowStartPath} where the onset is seen a round late.
 */
class GradualCutTest {
    private static final int MDS = 1200;

    private static AckEvent ack(long now, long pn, long sent) {
        return Packets.ack(now, List.of(packet(pn, sent, MDS)), Packets.rtt(10 * MS));
    }

    @Test
    void theWindowFallsByTheShareOfEachDeliveredByteUntilTheBoundThenIsTheTarget() {
        // 240 kB in flight at the cut (t = 0), target 120 kB: half of each delivered byte comes off the window, so one
        // packet is sent per two delivered; at the bound (150 kB) the cut is over and the window is the target
        GradualCut cut = new GradualCut();
        assertEquals(240_000, cut.start(0, 240_000, 120_000, 150_000), "nothing is sent until packets are delivered");
        assertTrue(cut.active());
        assertEquals(239_400, cut.onAck(ack(MS, 0, -5 * MS)));
        for (int i = 1; i < 149; i++) {
            assertEquals(240_000 - (i + 1) * MDS / 2, cut.onAck(ack(MS + i, i, -5 * MS)));
        }
        assertTrue(cut.active(), "150.6 kB, above the bound");
        assertEquals(120_000, cut.onAck(ack(2 * MS, 149, -5 * MS)), "150 kB: the bound");
        assertFalse(cut.active());
    }

    @Test
    void theFirstAckOfAPacketSentAfterTheCutEndsIt() {
        GradualCut cut = new GradualCut();
        cut.start(10 * MS, 240_000, 120_000, 120_000);
        assertEquals(239_400, cut.onAck(ack(11 * MS, 0, 9 * MS)));
        assertEquals(120_000, cut.onAck(ack(21 * MS, 1, 11 * MS)), "a round after the cut");
        assertFalse(cut.active());
    }

    @Test
    void onlyOnsetBdpQueueBoundsAGradualCutAtItsEstimatePlusTheQueueSeen() {
        for (boolean standingQueue : new boolean[] {false, true}) {
            OnsetBdp rule = new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true, standingQueue);
            assertEquals(-1, rule.gradualCutAbove(), "no estimate yet");
            SlowStartPath p = new SlowStartPath(true, rule, 125_000_000L, 10 * MS, 520, true, Noise.NONE).run(200 * MS);
            assertTrue(p.checkTime > 0);
            long expected = standingQueue
                    ? rule.bdpEstimate() + (long) (Math.max(rule.maxDeliveryRate(), rule.busyAckRate()) * (rule.maxQueueDelay() / 1e9))
                    : -1;
            assertEquals(expected, rule.gradualCutAbove(), "standing queue " + standingQueue);
        }
    }

    /**
     * 1 Gbit/s, 10 ms, 520 packets of buffer (0.5 BDP), as the simulator's 1 Gbit/s × 10 ms × 0.5 BDP grid point: the
     * first onset comes a round late, with 1.78 BDP in flight of which 294 packets are lost (all sent before the cut)
     * and declared only a round later. Cut at once to the estimate (1.0 BDP), those losses keep the sender silent
     * while the queue drains and the bottleneck idled 2.7 ms before the check's exit; CUBIC's gradual cut keeps it
     * sending at about half the ACK rate until the window reaches the estimate plus the queue seen (0.7 ms idle).
     * NewReno cuts at once as before, and neither has a congestion event.
     */
    @Test
    void cubicsGradualCutKeepsTheBottleneckBusyWhileSlowStartsOverflowIsNotYetDeclared() {
        for (boolean cubic : new boolean[] {true, false}) {
            OnsetBdp rule = new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true, true);
            SlowStartPath p = new SlowStartPath(cubic, rule, 125_000_000L, 10 * MS, 520, true, Noise.NONE);
            long t = 0;
            while (p.checkTime < 0 && t < 200 * MS) {
                t += MS / 10;
                p.run(t);
            }
            String d = (cubic ? "cubic" : "newreno") + ": check at " + p.checkTime / 1e6 + " ms, window " + p.cc.congestionWindow()
                    + ", in flight " + p.inflight + ", estimate " + rule.bdpEstimate() + ", drops " + p.drops;
            assertTrue(p.checkTime > 0 && !rule.held(), d);
            assertTrue(p.inflight > 1.7 * p.bdp() && p.drops > 200, "the onset came a round late: " + d);
            if (cubic) {
                assertTrue(p.cc.congestionWindow() > p.inflight - 20 * MDS, "gradual: " + d);
            } else {
                assertEquals(rule.bdpEstimate(), p.cc.congestionWindow(), "at once: " + d);
            }
            long dropsAtCut = p.drops;
            p.run(300 * MS);
            d += "; exit at " + p.exitTime / 1e6 + " ms, by loss " + p.exitByLoss;
            assertTrue(p.exitTime > p.checkTime && !p.exitByLoss, d);
            assertEquals(dropsAtCut, p.dropsBeforeExit, "nothing sent after the cut was lost: " + d);
            long idle = p.idleBetween(p.checkTime, p.exitTime);
            if (cubic) {
                assertTrue(idle < MS, "the bottleneck idled " + idle / 1e6 + " ms (at once: 2.7): " + d);
            } else {
                assertTrue(idle > MS, "NewReno as before: idle " + idle / 1e6 + " ms: " + d);
            }
        }
    }
}
