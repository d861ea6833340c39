package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.packet;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.recovery.RttEstimator;

/** The onset rule on scripted RTT samples: the run, its span, the threshold, the exit window. */
class QueueOnsetTest {
    private static final int MDS = 1200;

    private static final class Script {
        final QueueOnset rule;
        final RttEstimator rtt = new RttEstimator();
        long pn;
        long now;

        Script(QueueOnset rule) {
            this.rule = rule;
        }

        /** An ACK {@code gap} after the previous one, with RTT sample {@code sample}, at window {@code cwnd}. */
        boolean ack(long gap, long sample, long cwnd) {
            now += gap;
            rtt.onSample(now, sample, 0, 0, true);
            return rule.onAck(new AckEvent(now, List.of(packet(pn++, now - sample, MDS)), rtt.estimates(), 0, 0, null, false, 0), cwnd, MDS);
        }
    }

    @Test
    void eightSamplesAboveTheThresholdSpanningTwoMillisecondsEndSlowStartAtTheWindowOfTheFirst() {
        Script s = new Script(new QueueOnset(QueueOnset.DEFAULT_MIN_DELAY, true));
        for (int i = 0; i < 20; i++) {
            assertFalse(s.ack(MS / 2, 40 * MS, 100_000));
        }
        assertEquals(1_250_000, s.rule.threshold(), "max(1 ms, 40 ms / 32)");
        // 1.25 ms above is not above the threshold; 1.3 ms is
        for (int i = 0; i < 20; i++) {
            assertFalse(s.ack(MS / 2, 41_250_000, 100_000));
        }
        long window = 100_000;
        boolean exit = false;
        int samples = 0;
        while (!exit) {
            exit = s.ack(MS / 2, 41_300_000, window);
            samples++;
            window += MDS;
        }
        // the eighth sample is 3.5 ms after the first: both conditions hold there
        assertEquals(8, samples);
        assertEquals(100_000, s.rule.exitWindow(window), "the window when the run began");
        assertEquals(1_300_000, s.rule.exitDelay());
        assertFalse(s.rule.active());
        assertFalse(s.ack(MS / 2, 90 * MS, window), "nothing after the exit");
    }

    @Test
    void oneSampleBelowRestartsTheRunAndTheRunMustSpanTwoMilliseconds() {
        Script s = new Script(new QueueOnset(QueueOnset.DEFAULT_MIN_DELAY, true));
        s.ack(MS, 40 * MS, 100_000);
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 7; i++) {
                assertFalse(s.ack(MS / 2, 45 * MS, 100_000));
            }
            assertFalse(s.ack(MS / 2, 40 * MS, 100_000), "RTT noise: a quiet sample between bursts of high ones");
        }
        // eight samples 0.1 ms apart span 0.7 ms: not yet; the run goes on until it spans 2 ms
        int samples = 0;
        while (!s.ack(MS / 10, 45 * MS, 100_000)) {
            samples++;
        }
        assertEquals(20, samples, "the 21st sample is 2 ms after the first");
    }

    @Test
    void aStalledSenderThatHandlesAckTogetherDoesNotLeave() {
        // a cold JVM, a garbage collection: 30 ACKs arrive during a 20 ms stall and are handled at one instant, each
        // sample inflated by the stall; the ACKs after it are handled on time
        Script s = new Script(new QueueOnset(QueueOnset.DEFAULT_MIN_DELAY, true));
        for (int i = 0; i < 10; i++) {
            s.ack(MS / 2, 40 * MS, 100_000);
        }
        s.now += 20 * MS;
        for (int i = 0; i < 30; i++) {
            assertFalse(s.ack(0, 40 * MS + 20 * MS - i * MS / 2, 100_000), "ACK " + i + " of the stall");
        }
        for (int i = 0; i < 30; i++) {
            assertFalse(s.ack(MS / 2, 40 * MS, 100_000));
        }
        assertTrue(s.rule.active());
    }

    @Test
    void theThresholdScalesWithTheRttAndNothingHappensBelowSixteenPackets() {
        Script s = new Script(new QueueOnset(QueueOnset.DEFAULT_MIN_DELAY, true));
        s.ack(MS, 200 * MS, 100_000);
        assertEquals(6_250_000, s.rule.threshold(), "200 ms / 32");
        for (int i = 0; i < 20; i++) {
            assertFalse(s.ack(MS, 206 * MS, 100_000), "6 ms of queue at 200 ms");
        }
        // a run above the threshold with a window of 15 packets waits until the window reaches 16
        for (int i = 0; i < 20; i++) {
            assertFalse(s.ack(MS, 207 * MS, 15L * MDS));
        }
        assertTrue(s.ack(MS, 207 * MS, 16L * MDS));
        assertEquals(16L * MDS, s.rule.exitWindow(16L * MDS), "never below 16 packets");
        assertEquals(2 * MS, new QueueOnset(2 * MS, true).threshold(), "the floor before any sample");
    }

    @Test
    void anUnpacedSendersRunMustLastHalfTheMinimumRtt() {
        Script s = new Script(new QueueOnset(QueueOnset.DEFAULT_MIN_DELAY, false));
        s.ack(MS, 40 * MS, 100_000);
        assertEquals(20 * MS, s.rule.span());
        int samples = 0;
        while (!s.ack(MS, 45 * MS, 100_000)) {
            samples++;
        }
        assertEquals(20, samples);
        assertEquals(QueueOnset.SPAN_NS, new QueueOnset(MS, true).span());
    }
}
