package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.SlowStartPath.MS;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pacelab.quic.cc.SlowStartPath.Noise;

/**
 * Every slow-start rule on the same scripted path ({@link SlowStartPath}): 40 Mbit/s, 40 ms, an 83-packet buffer
 * (0.5 BDP), a sender paced at 2 × cwnd / srtt in slow start as pacelab's, with the disturbances a real path and a
 * real host add: RTT noise, ACK compression, the slow first ACKs of a cold JVM.
 */
class SlowStartRulesTest {
    private static final long RATE = 5_000_000;      // 40 Mbit/s
    private static final long RTT = 40 * MS;
    private static final int BUFFER = 83;

    private static SlowStartPath run(SlowStartExit rule, boolean cubic, boolean paced, Noise noise) {
        return new SlowStartPath(cubic, rule, RATE, RTT, BUFFER, paced, noise).run(2000 * MS);
    }

    private static SlowStartExit rule(SlowStartRule r, boolean paced) {
        return SlowStartConfig.defaults(CongestionAlgorithm.CUBIC).withRule(r).create(paced);
    }

    private static String describe(SlowStartPath p) {
        return String.format("exit at %.1f ms, window %d, ssthresh %d (BDP %d, capacity %d), by loss %s, drops before %d, "
                + "all %d, %s", p.exitTime / 1e6, p.exitCwnd, p.exitSsthresh, p.bdp(), p.capacity(), p.exitByLoss,
                p.dropsBeforeExit, p.drops, p.cc.qlogState());
    }

    static Stream<Arguments> disturbances() {
        return Stream.of(
                Arguments.of("paced arrivals", Noise.NONE),
                Arguments.of("RTT noise: up to 2 ms on every ACK", Noise.jitter(2 * MS)),
                Arguments.of("ACK compression: ACKs released every 4 ms", Noise.compression(4 * MS)),
                Arguments.of("a cold JVM: the first 20 ACKs handled 30 ms late", Noise.coldStart(20, 30 * MS)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("disturbances")
    void onsetLeavesSlowStartBeforeTheBufferOverflowsAndNotBeforeTheBdp(String name, Noise noise) {
        for (boolean cubic : new boolean[] {true, false}) {
            SlowStartPath p = run(rule(SlowStartRule.QUEUE_ONSET, true), cubic, true, noise);
            String d = (cubic ? "cubic: " : "newreno: ") + describe(p);
            assertTrue(p.exitTime > 0 && !p.exitByLoss, d);
            assertEquals(0, p.dropsBeforeExit, d);
            assertTrue(p.exitSsthresh >= p.bdp(), "the pipe is full at the exit: " + d);
            assertTrue(p.exitSsthresh <= p.capacity(), d);
            assertTrue(p.drops <= 5, d);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("disturbances")
    void noRuleLeavesSlowStartBeforeThePipeIsFullWhateverTheDisturbance(String name, Noise noise) {
        for (SlowStartRule r : SlowStartRule.values()) {
            SlowStartPath p = run(rule(r, true), true, true, noise);
            assertTrue(p.exitTime > 0, r + ": " + describe(p));
            assertTrue(p.exitCwnd >= p.bdp(), r + " left slow start early: " + describe(p));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("disturbances")
    void hystartPlusPlusSeesTheQueueARoundLateAndTheBufferOverflowsFirst(String name, Noise noise) {
        SlowStartPath p = run(rule(SlowStartRule.HYSTART_PLUS_PLUS, true), true, true, noise);
        // each round's queue drains before the next round starts, so no round's minimum RTT rises in time
        assertTrue(p.exitByLoss, describe(p));
        assertTrue(p.exitCwnd > 1.5 * p.capacity(), describe(p));
        assertTrue(p.dropsBeforeExit > 100, describe(p));
    }

    @Test
    void standardAndSearchRunIntoTheLossOnAPacedPath() {
        for (SlowStartRule r : new SlowStartRule[] {SlowStartRule.STANDARD, SlowStartRule.SEARCH}) {
            SlowStartPath p = run(rule(r, true), true, true, Noise.NONE);
            assertTrue(p.exitByLoss, r + ": " + describe(p));
            assertTrue(p.exitCwnd > 1.5 * p.capacity(), r + ": " + describe(p));
        }
    }

    @Test
    void theAckTrainOfAPacedSenderMeasuresThePacerNotTheBottleneck() {
        // Linux's paced threshold (delay_min): the round's train of ACKs never outlasts a minimum RTT in time
        SlowStartPath paced = run(new HyStart(HyStart.Detect.BOTH, true), true, true, Noise.NONE);
        assertTrue(paced.exitByLoss, describe(paced));
        // the unpaced threshold (delay_min / 2) on the same paced sender: the pacer spreads a round over about half
        // an RTT whatever the path, so the train "detects" a full pipe at less than half the BDP
        SlowStartPath halved = run(new HyStart(HyStart.Detect.TRAIN, false), true, true, Noise.NONE);
        assertFalse(halved.exitByLoss, describe(halved));
        assertEquals(HyStart.Found.ACK_TRAIN, ((HyStart) halved.rule).found());
        assertTrue(halved.exitCwnd < halved.bdp() / 2, describe(halved));
        // an unpaced sender's bursts queue at the bottleneck, so there the train measures it: the exit is near the
        // BDP, before the buffer overflows
        SlowStartPath unpaced = run(new HyStart(HyStart.Detect.BOTH, false), true, false, Noise.NONE);
        assertFalse(unpaced.exitByLoss, describe(unpaced));
        assertTrue(unpaced.exitCwnd >= unpaced.bdp() && unpaced.exitCwnd <= unpaced.capacity(), describe(unpaced));
        assertTrue(unpaced.drops <= 5, describe(unpaced));
    }

    @Test
    void onsetOfAnUnpacedSenderWaitsForAQueueThatLastsHalfAnRtt() {
        // every unpaced burst queues at the bottleneck: the short runs of a small window do not end slow start
        SlowStartPath p = run(rule(SlowStartRule.QUEUE_ONSET, false), true, false, Noise.NONE);
        assertFalse(p.exitByLoss, describe(p));
        assertTrue(p.exitSsthresh >= p.bdp(), describe(p));
        assertTrue(p.exitCwnd < 1.25 * p.capacity(), describe(p));
    }

    @Test
    void theRulesReportThemselvesInQlog() {
        for (SlowStartRule r : SlowStartRule.values()) {
            Map<String, Object> q = run(rule(r, true), true, true, Noise.NONE).cc.qlogState();
            assertEquals(r.optionValue(), q.get("slow_start_rule"));
        }
    }
}
