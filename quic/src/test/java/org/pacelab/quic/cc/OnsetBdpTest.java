package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.packet;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pacelab.quic.cc.SlowStartPath.Noise;
import org.pacelab.quic.recovery.RttEstimator;

/**
 * The onset-bdp rule: the queue's onset, leaving with the rate the run's ACKs measured × the minimum RTT; scripted
 * samples first, then the scripted paced bottleneck of {@link SlowStartPath} with its disturbances.
 */
class OnsetBdpTest {
    private static final int MDS = 1200;

    private static final class Script {
        final OnsetBdp rule = new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true);
        final RttEstimator rtt = new RttEstimator();
        long pn;
        long now;

        /** An ACK of one packet {@code gap} after the previous one, RTT sample {@code sample}, window {@code cwnd}. */
        boolean ack(long gap, long sample, long cwnd, RateSample rs) {
            now += gap;
            rtt.onSample(now, sample, 0, 0, true);
            return rule.onAck(new AckEvent(now, List.of(packet(pn++, now - sample, MDS)), rtt.estimates(), 0, 0, rs, false, 0), cwnd, MDS);
        }
    }

    private static RateSample rate(long bytesPerSecond) {
        return new RateSample(bytesPerSecond, 40 * MS, 0, 0, 0, false, 40 * MS, MDS, 0, 0, 0);
    }

    /** Drives the script to the first onset taken: returns the window cut it asks for. */
    private static long firstOnset(Script s, long gap, long sample, long window, RateSample rs) {
        for (int guard = 0; guard < 1000; guard++) {
            assertFalse(s.ack(gap, sample, window, rs), "the first onset cuts, it does not end slow start");
            long cut = s.rule.windowCut();
            if (cut >= 0) {
                return cut;
            }
        }
        throw new AssertionError("no onset taken: " + s.rule.phase() + ", rejected " + s.rule.rejectedOnsets());
    }

    @Test
    void theFirstOnsetCutsToTheBusyAckRateTimesTheMinimumRttAndSlowStartGoesOnConservatively() {
        Script s = new Script();
        for (int i = 0; i < 20; i++) {
            assertFalse(s.ack(MS / 2, 40 * MS, 300_000, rate(1_000_000)));
        }
        // the queue stands: one 1200-byte packet acknowledged every 0.5 ms = 2.4 MB/s, each having waited 3 ms
        assertEquals(96_000, firstOnset(s, MS / 2, 43 * MS, 300_000, rate(1_000_000)), "2.4 MB/s x 40 ms");
        assertEquals(2_400_000, s.rule.busyAckRate());
        assertEquals(96_000, s.rule.bdpEstimate());
        assertEquals(-1, s.rule.windowCut(), "once");
        assertEquals(OnsetBdp.Phase.CHECK, s.rule.phase());
        assertTrue(s.rule.active() && s.rule.conservative() && s.rule.exitCoversInFlight());
        assertEquals(3_000_000, s.rule.pacingRate(), "the check is paced at 1.25 x the measured 2.4 MB/s");
        // the packets sent before the cut: their ACKs grow nothing and are not looked at
        assertEquals(0, s.rule.increase(1200));
        assertFalse(s.ack(MS / 2, 43 * MS, 96_000, null));
        assertEquals(OnsetBdp.Phase.CHECK, s.rule.phase());
    }

    @Test
    void aSecondOnsetAfterTheCutEndsSlowStartWithItsEstimate() {
        Script s = new Script();
        assertEquals(0, s.rule.pacingRate(), "slow start itself is paced at the pacer's gain");
        s.ack(MS, 40 * MS, 200_000, null);
        firstOnset(s, MS / 2, 43 * MS, 200_000, null);
        long cutAt = s.now;
        // packets sent after the cut, acknowledged every 0.6 ms (2 MB/s) after a 3 ms wait: a queue again
        boolean exit = false;
        for (int i = 0; i < 100 && !exit; i++) {
            s.now += 3 * MS / 5;
            s.rtt.onSample(s.now, 43 * MS, 0, 0, true);
            exit = s.rule.onAck(new AckEvent(s.now, List.of(packet(s.pn++, cutAt + MS, MDS)), s.rtt.estimates(), 0, 0, null, false, 0),
                    96_000, MDS);
            if (i == 0) {
                assertEquals(300, s.rule.increase(1200), "a quarter of the bytes once a packet sent after the cut is acknowledged");
            }
        }
        assertTrue(exit, s.rule.phase().toString());
        assertEquals(OnsetBdp.Phase.DONE, s.rule.phase());
        assertEquals(2_000_000, s.rule.busyAckRate());
        assertEquals(80_000, s.rule.bdpEstimate(), "2 MB/s x 40 ms");
        assertFalse(s.rule.active());
    }

    @Test
    void withoutASecondOnsetWithinTheCheckSlowStartResumes() {
        // the rate rose after the onset (an LTE cell): after the cut the samples stay at the base RTT
        Script s = new Script();
        s.ack(MS, 40 * MS, 200_000, null);
        firstOnset(s, MS / 2, 43 * MS, 200_000, null);
        long roundBegan = s.now;
        int rounds = 0;
        while (s.rule.phase() == OnsetBdp.Phase.CHECK && rounds < 10) {
            // a round: 10 ACKs of packets sent just after the previous round began, at the base RTT
            long sent = roundBegan + 1;
            for (int i = 0; i < 10; i++) {
                s.now += MS;
                if (i == 0) {
                    roundBegan = s.now;
                }
                s.rtt.onSample(s.now, 40 * MS, 0, 0, true);
                assertFalse(s.rule.onAck(new AckEvent(s.now, List.of(packet(s.pn++, sent, MDS)), s.rtt.estimates(), 0, 0, null,
                        false, 0), 96_000, MDS));
            }
            rounds++;
        }
        assertEquals(OnsetBdp.Phase.SLOW_START, s.rule.phase());
        assertEquals(1, s.rule.resumes());
        assertEquals(OnsetBdp.CSS_ROUNDS + 1, rounds, "the round of the packets sent before the cut, then CSS_ROUNDS");
        assertEquals(1200, s.rule.increase(1200), "full slow start again");
        assertFalse(s.rule.conservative());
        // and a later onset is taken again (a new detector)
        assertEquals(96_000, firstOnset(s, MS / 2, 43 * MS, 300_000, null));
    }

    @Test
    void aPacingQuantumsWaitAtASlowBottleneckIsNoOnset() {
        // a slow bottleneck: a pacing quantum of two packets every 2.4 ms, the ACK of each pair reporting the second,
        // which waited behind the first: 31.4 ms against a 30 ms minimum, above the threshold (max(1 ms, 30 ms / 32));
        // the bottleneck idles between the pairs
        Script s = new Script();
        s.ack(MS, 30 * MS, 40_000, null);
        for (int i = 0; i < 200; i++) {
            assertFalse(s.ack(2_400_000, 31_400_000, 40_000, null));
            assertEquals(-1, s.rule.windowCut());
        }
        assertTrue(s.rule.rejectedOnsets() > 0, "the delay alone confirmed runs");
        assertEquals(OnsetBdp.Phase.SLOW_START, s.rule.phase());
        assertEquals(-1, s.rule.bdpEstimate());
    }

    @Test
    void aRunWhoseBusyAcksCameBeforeAnIdleGapIsNoOnset() {
        // the initial window's burst queues (waits 5 to 10 ms, ACKs 1 ms apart), then the next round's ACKs come
        // 30 ms later, each having waited only 1.4 ms: the run of samples above the threshold spans both, but the
        // bottleneck idled in between; not taken
        Script s = new Script();
        s.ack(MS, 40 * MS, 40_000, null);
        for (int i = 0; i < 5; i++) {
            assertFalse(s.ack(MS, 45 * MS + i * MS, 40_000, null));
        }
        assertFalse(s.ack(30 * MS, 41_400_000, 40_000, null));
        for (int i = 0; i < 4; i++) {
            assertFalse(s.ack(2_500_000, 41_400_000, 40_000, null));
        }
        assertEquals(-1, s.rule.windowCut());
        assertEquals(1, s.rule.rejectedOnsets());
        assertEquals(OnsetBdp.Phase.SLOW_START, s.rule.phase());
    }

    @Test
    void aHigherDeliveryRateSampleCounts() {
        Script s = new Script();
        s.ack(MS, 40 * MS, 600_000, rate(10_000_000));
        // a slow busy ACK rate (1.2 MB/s): the delivery-rate sample of 10 MB/s is the larger
        assertEquals(400_000, firstOnset(s, MS, 43 * MS, 600_000, rate(1_000_000)));
        assertEquals(10_000_000, s.rule.maxDeliveryRate());
        assertEquals(400_000, s.rule.bdpEstimate());
    }

    @Test
    void theCutIsAtMostTheWindowAndAtLeastSixteenPackets() {
        Script s = new Script();
        s.ack(MS, 40 * MS, 80_000, null);
        assertEquals(80_000, firstOnset(s, MS / 2, 43 * MS, 80_000, null), "96 kB estimated, 80 kB of window");
        Script low = new Script();
        low.ack(MS, 40 * MS, 100_000, null);
        assertEquals(16 * MDS, firstOnset(low, 2_800_000, 43 * MS, 100_000, null), "0.43 MB/s x 40 ms = 17 kB, the floor is 16 packets");
    }

    @Test
    void aCoveredLossLowersTheWindowOnceToTheEstimate() {
        Script s = new Script();
        s.ack(MS, 40 * MS, 300_000, null);
        firstOnset(s, MS / 2, 43 * MS, 300_000, null);
        assertEquals(96_000, s.rule.windowAfterCoveredLoss(300_000));
        assertEquals(96_000, s.rule.windowAfterCoveredLoss(96_000), "then no change");
        assertEquals(120_000, s.rule.windowAfterCoveredLoss(120_000), "once only");
    }

    @Test
    void cubicTakesNoCongestionEventForPacketsSentBeforeTheExitButForLaterOnes() {
        OnsetBdp rule = new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true);
        CubicController cc = new CubicController(MDS, rule, CubicRollback.OFF, true);
        RttEstimator rtt = new RttEstimator();
        long now = 0;
        long pn = 0;
        // grow the window in slow start with base-RTT samples: one packet acknowledged per 0.5 ms
        while (cc.congestionWindow() < 200_000) {
            now += MS / 2;
            rtt.onSample(now, 40 * MS, 0, 0, true);
            cc.onAck(new AckEvent(now, List.of(packet(pn++, now - 40 * MS, MDS)), rtt.estimates(), 0, 0, null, false, 0));
        }
        while (cc.inSlowStart()) {
            now += MS / 2;
            rtt.onSample(now, 43 * MS, 0, 0, true);
            cc.onAck(new AckEvent(now, List.of(packet(pn++, now - 43 * MS, MDS)), rtt.estimates(), 0, 0, null, false, 0));
        }
        long exitTime = now;
        long exitWindow = cc.congestionWindow();
        assertEquals("onset-bdp", cc.qlogState().get("slow_start_rule"));
        assertEquals("done", cc.qlogState().get("onset_bdp_phase"), "cut at the first onset, left at the second");
        assertTrue(exitWindow >= rule.bdpEstimate(), cc.qlogState().toString());
        // a packet sent before the exit is lost: no congestion event, the window becomes the estimate (96 kB)
        cc.onLoss(new LossEvent(now + MS, List.of(packet(pn++, exitTime - 10 * MS, MDS)), rtt.estimates(), 0, 0, false, 0, 0));
        assertEquals(96_000, cc.congestionWindow());
        assertEquals("congestion_avoidance", cc.state(), "no recovery period");
        // the window was cut to the estimate at the first onset and the second onset confirmed it, so that loss
        // lowered nothing and the cover ends at the exit: the loss of a packet sent after it is CUBIC's β
        cc.onLoss(new LossEvent(now + 2 * MS, List.of(packet(pn++, exitTime + MS / 2, MDS)), rtt.estimates(), 0, 0, false, 0, 0));
        assertEquals(67_200, cc.congestionWindow(), 10, "96 kB x 0.7");
        assertEquals("recovery", cc.state());
    }

    @Test
    void cubicAndNewRenoPaceTheCheckAtAQuarterAboveTheMeasuredRateAndSlowStartAtThePacersGain() {
        for (boolean cubic : new boolean[] {true, false}) {
            OnsetBdp rule = new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true);
            CongestionController cc = cubic ? new CubicController(MDS, rule, CubicRollback.OFF, true)
                    : new NewRenoController(MDS, rule);
            RttEstimator rtt = new RttEstimator();
            long now = 0;
            long pn = 0;
            while (cc.congestionWindow() < 200_000) {
                now += MS / 2;
                rtt.onSample(now, 40 * MS, 0, 0, true);
                cc.onAck(new AckEvent(now, List.of(packet(pn++, now - 40 * MS, MDS)), rtt.estimates(), 0, 0, null, false, 0));
                assertEquals(0, cc.pacingRate(), cc.name());
            }
            while (rule.phase() == OnsetBdp.Phase.SLOW_START) {
                now += MS / 2;
                rtt.onSample(now, 43 * MS, 0, 0, true);
                cc.onAck(new AckEvent(now, List.of(packet(pn++, now - 43 * MS, MDS)), rtt.estimates(), 0, 0, null, false, 0));
            }
            assertEquals(OnsetBdp.Phase.CHECK, rule.phase(), cc.name());
            assertTrue(cc.inSlowStart(), cc.name());
            // the run's ACKs: 1200 bytes every 0.5 ms = 2.4 MB/s; the check's rounds are paced at 1.25 x that
            assertEquals(3_000_000, cc.pacingRate(), cc.name());
            // no second onset: full slow start resumes after CSS_ROUNDS rounds, at the slow-start gain again
            long roundBegan = now;
            for (int round = 0; round <= OnsetBdp.CSS_ROUNDS && rule.phase() == OnsetBdp.Phase.CHECK; round++) {
                long sent = roundBegan + 1;
                for (int i = 0; i < 10; i++) {
                    now += MS;
                    if (i == 0) {
                        roundBegan = now;
                    }
                    rtt.onSample(now, 40 * MS, 0, 0, true);
                    cc.onAck(new AckEvent(now, List.of(packet(pn++, sent, MDS)), rtt.estimates(), 0, 0, null, false, 0));
                }
            }
            assertEquals(OnsetBdp.Phase.SLOW_START, rule.phase(), cc.name());
            assertEquals(0, cc.pacingRate(), cc.name());
        }
    }

    @Test
    void withABufferOfAQuarterBdpTheCheckOverflowsNothing() {
        // 40 Mbit/s, 40 ms: BDP 200 kB (166 packets), a buffer of 41 packets (0.25 BDP). A window at the BDP paced at
        // gain 2 sends the round in half an RTT and queues half the BDP; at 1.25 x the measured rate the queue peaks
        // at 0.2 BDP, below the buffer. What may still overflow is the check's growth by a quarter per round: its
        // queue shows a round after it formed, so the window passes BDP + buffer by a few packets before the exit
        for (boolean cubic : new boolean[] {true, false}) {
            OnsetBdp rule = new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true);
            SlowStartPath p = new SlowStartPath(cubic, rule, 5_000_000, 40 * MS, 41, true, Noise.NONE).run(1500 * MS);
            String d = (cubic ? "cubic: " : "newreno: ") + describe(p) + ", check began " + p.checkTime / 1e6 + " ms, "
                    + p.dropsSinceCheck + " drops since";
            assertTrue(p.checkTime > 0 && p.exitTime > p.checkTime && !p.exitByLoss, d);
            assertTrue(p.dropsSinceCheck <= 2, d);
            assertTrue(p.exitSsthresh >= p.bdp() && p.exitSsthresh <= p.capacity(), d);
        }
    }

    static Stream<Arguments> disturbances() {
        return Stream.of(
                Arguments.of("paced arrivals", Noise.NONE),
                Arguments.of("RTT noise: up to 2 ms on every ACK", Noise.jitter(2 * MS)),
                Arguments.of("ACK compression: ACKs released every 4 ms", Noise.compression(4 * MS)),
                Arguments.of("a cold JVM: the first 20 ACKs handled 30 ms late", Noise.coldStart(20, 30 * MS)));
    }

    private static String describe(SlowStartPath p) {
        return String.format("exit at %.1f ms, window %d, ssthresh %d (BDP %d, capacity %d), by loss %s, drops before %d, "
                + "all %d, cwnd now %d, %s", p.exitTime / 1e6, p.exitCwnd, p.exitSsthresh, p.bdp(), p.capacity(),
                p.exitByLoss, p.dropsBeforeExit, p.drops, p.cc.congestionWindow(), p.cc.qlogState());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("disturbances")
    void onTheQuicStepsBottleneckItLeavesBeforeTheBufferOverflowsWithAFullPipe(String name, Noise noise) {
        // 40 Mbit/s, 40 ms, 0.5 BDP of buffer (as SlowStartRulesTest)
        for (boolean cubic : new boolean[] {true, false}) {
            OnsetBdp rule = new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true);
            SlowStartPath p = new SlowStartPath(cubic, rule, 5_000_000, 40 * MS, 83, true, noise).run(2000 * MS);
            String d = (cubic ? "cubic: " : "newreno: ") + describe(p);
            assertTrue(p.exitTime > 0 && !p.exitByLoss, d);
            assertEquals(0, p.dropsBeforeExit, d);
            assertTrue(p.exitSsthresh >= p.bdp() && p.exitSsthresh <= p.capacity(), d);
            assertTrue(p.drops <= 5, d);
        }
    }

    @Test
    void whenTheOnsetComesAfterTheBufferOverflowedTheWindowGoesToTheBdpInsteadOfBelowIt() {
        // a buffer of 20 packets (0.12 BDP): the queue's onset is confirmed only after the window overflowed it (the
        // exit window, 257 kB, is above the 224 kB the path holds); onset then takes CUBIC's β from that window when
        // the losses are detected, onset-bdp takes the measured BDP for the packets sent before its exit and in the
        // round after; 100 ms after the exit
        SlowStartPath onset = new SlowStartPath(true, new QueueOnset(QueueOnset.DEFAULT_MIN_DELAY, true), 5_000_000,
                40 * MS, 20, true, Noise.NONE).run(320 * MS);
        SlowStartPath bdp = new SlowStartPath(true, new OnsetBdp(QueueOnset.DEFAULT_MIN_DELAY, true), 5_000_000,
                40 * MS, 20, true, Noise.NONE).run(320 * MS);
        String d = "onset: " + describe(onset) + "; onset-bdp: " + describe(bdp);
        assertTrue(onset.exitSsthresh > onset.capacity(), d);
        assertEquals(bdp.bdp(), ((OnsetBdp) bdp.rule).bdpEstimate(), 0.03 * bdp.bdp(), d);
        // it leaves at the window the check's confirming run began with: above the BDP by the check's growth
        // (less than its quarter per round), not below it
        assertTrue(bdp.cc.congestionWindow() >= bdp.bdp() && bdp.cc.congestionWindow() <= 1.15 * bdp.bdp(), d);
        assertTrue(onset.cc.congestionWindow() < 0.95 * onset.bdp(), d);
        // the check's round after the cut is paced at 1.25 x the measured rate from a window at the BDP: its queue (up
        // to 0.2 BDP, 33 packets) may overflow the 20-packet buffer again, by at most that buffer
        assertTrue(bdp.drops <= onset.drops + 20, d);
    }
}
