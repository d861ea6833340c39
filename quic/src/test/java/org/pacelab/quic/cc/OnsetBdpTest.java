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
import org.pacelab.quic.recovery.RateSample;
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
            return rule.onAck(new AckEvent(now, List.of(packet(pn++, now - sample, MDS)), rtt, 0, 0, rs, false), cwnd, MDS);
        }
    }

    private static RateSample rate(long bytesPerSecond) {
        return new RateSample(bytesPerSecond, 40 * MS, 0, 0, 0, false, 40 * MS, MDS, 0, 0, 0);
    }

    @Test
    void theExitWindowIsTheRunsAckRateTimesTheMinimumRttWithinTheOnsetWindowAndTheWindowThen() {
        Script s = new Script();
        for (int i = 0; i < 20; i++) {
            assertFalse(s.ack(MS / 2, 40 * MS, 50_000, rate(1_000_000)));
        }
        // the queue stands: one 1200-byte packet acknowledged every 0.5 ms = 2.4 MB/s, above the threshold
        long window = 50_000;
        boolean exit = false;
        while (!exit) {
            exit = s.ack(MS / 2, 43 * MS, window, rate(1_000_000));
            window += 20 * MDS;
        }
        window -= 20 * MDS;
        assertEquals(2_400_000, s.rule.onset().exitAckRate(), "7 ACKs of 1200 bytes after the first, over 3.5 ms");
        assertEquals(96_000, s.rule.bdpEstimate(), "2.4 MB/s x 40 ms");
        assertEquals(96_000, s.rule.exitWindow(window), "above the onset's window (50 kB), below the window then");
        assertEquals(80_000, s.rule.exitWindow(80_000), "at most the window at the exit");
        assertFalse(s.rule.active());
        assertTrue(s.rule.exitCoversInFlight());
    }

    @Test
    void aHigherDeliveryRateSampleCountsAndTheOnsetsWindowIsTheFloor() {
        Script s = new Script();
        s.ack(MS, 40 * MS, 200_000, rate(10_000_000));
        while (!s.ack(MS, 43 * MS, 200_000, rate(1_000_000))) {
            // a slow ACK rate (1.2 MB/s): the delivery-rate sample of 10 MB/s is the larger
        }
        assertEquals(10_000_000, s.rule.maxDeliveryRate());
        assertEquals(400_000, s.rule.bdpEstimate());
        assertEquals(200_000, s.rule.exitWindow(200_000));

        Script low = new Script();
        low.ack(MS, 40 * MS, 100_000, null);
        while (!low.ack(MS, 43 * MS, 100_000, null)) {
            // 1.2 MB/s x 40 ms = 48 kB, below the window when the run began
        }
        assertEquals(48_000, low.rule.bdpEstimate());
        assertEquals(100_000, low.rule.exitWindow(100_000), "the onset's window is the floor");
    }

    @Test
    void aCoveredLossLowersTheWindowOnceToTheEstimate() {
        Script s = new Script();
        s.ack(MS, 40 * MS, 300_000, null);
        while (!s.ack(MS / 2, 43 * MS, 300_000, null)) {
            // 2.4 MB/s: 96 kB
        }
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
            cc.onAck(new AckEvent(now, List.of(packet(pn++, now - 40 * MS, MDS)), rtt, 0, 0, null, false));
        }
        while (cc.inSlowStart()) {
            now += MS / 2;
            rtt.onSample(now, 43 * MS, 0, 0, true);
            cc.onAck(new AckEvent(now, List.of(packet(pn++, now - 43 * MS, MDS)), rtt, 0, 0, null, false));
        }
        long exitTime = now;
        long exitWindow = cc.congestionWindow();
        assertEquals("onset-bdp", cc.qlogState().get("slow_start_rule"));
        assertTrue(exitWindow >= rule.bdpEstimate(), cc.qlogState().toString());
        // a packet sent before the exit is lost: no congestion event, the window becomes the estimate (96 kB)
        cc.onLoss(new LossEvent(now + MS, List.of(packet(pn++, exitTime - 10 * MS, MDS)), rtt, 0, 0, false));
        assertEquals(96_000, cc.congestionWindow());
        assertEquals("congestion_avoidance", cc.state(), "no recovery period");
        // a packet sent after the exit, before that loss: covered too (it left with the exit's window)
        cc.onLoss(new LossEvent(now + 2 * MS, List.of(packet(pn++, exitTime + MS / 2, MDS)), rtt, 0, 0, false));
        assertEquals(96_000, cc.congestionWindow());
        // a packet sent after the lower window was taken, lost before any such packet is acknowledged: the queue the
        // exit's window left, covered
        cc.onLoss(new LossEvent(now + 3 * MS, List.of(packet(pn++, now + 2 * MS, MDS)), rtt, 0, 0, false));
        assertEquals(96_000, cc.congestionWindow());
        // the first ACK of a packet sent after the lowering ends the cover; a later packet's loss: CUBIC's β
        rtt.onSample(now + 45 * MS, 40 * MS, 0, 0, true);
        cc.onAck(new AckEvent(now + 45 * MS, List.of(packet(pn++, now + 5 * MS, MDS)), rtt, 0, 0, null, false));
        cc.onLoss(new LossEvent(now + 50 * MS, List.of(packet(pn++, now + 46 * MS, MDS)), rtt, 0, 0, false));
        assertEquals(67_200, cc.congestionWindow(), 10, "96 kB (and one ACK's growth) x 0.7");
        assertEquals("recovery", cc.state());
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
        assertTrue(onset.exitSsthresh > onset.capacity() && bdp.exitSsthresh > bdp.capacity(), d);
        assertEquals(bdp.bdp(), ((OnsetBdp) bdp.rule).bdpEstimate(), 0.02 * bdp.bdp(), d);
        assertEquals(bdp.bdp(), bdp.cc.congestionWindow(), 0.05 * bdp.bdp(), d);
        assertTrue(onset.cc.congestionWindow() < 0.95 * onset.bdp(), d);
        assertTrue(bdp.drops <= onset.drops + 5, "the round after the exit meets the standing queue: " + d);
    }
}
