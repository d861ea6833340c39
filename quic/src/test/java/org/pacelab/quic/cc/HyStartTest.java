package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.packet;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.recovery.RttEstimator;

/** Linux HyStart ({@code tcp_cubic.c}) on scripted ACK sequences: the ACK train, the delay signal, their limits. */
class HyStartTest {
    private static final int MDS = 1200;
    private static final long CWND = 20L * MDS;

    /** Feeds ACKs to a HyStart; each acknowledges a new packet; the window stays at {@code cwnd}. */
    private static final class Script {
        final HyStart hs;
        final RttEstimator rtt = new RttEstimator();
        long cwnd = CWND;
        long pn;
        boolean exited;
        long exitTime = -1;

        Script(HyStart hs) {
            this.hs = hs;
        }

        /** A packet is sent (it may end a round when acknowledged). */
        void send() {
            hs.onPacketSent(packet(pn, 0, MDS));
        }

        /** An ACK at {@code now} with RTT sample {@code sample}; returns whether HyStart ended slow start. */
        boolean ack(long now, long sample) {
            rtt.onSample(now, sample, 0, 0, true);
            boolean exit = hs.onAck(new AckEvent(now, List.of(packet(pn++, now - sample, MDS)), rtt.estimates(), 0, 0, null, false, 0), cwnd, MDS);
            if (exit && !exited) {
                exited = true;
                exitTime = now;
            }
            return exit;
        }
    }

    @Test
    void ackTrainOfAPacedSenderEndsSlowStartOnceItOutlastsTheMinimumRttAndTheCushion() {
        Script s = new Script(new HyStart(HyStart.Detect.BOTH, true));
        long t0 = 1000 * MS;
        // one round: an ACK every millisecond, RTT 40 ms (no queue, so no delay signal)
        for (int i = 0; i <= 60 && !s.exited; i++) {
            s.ack(t0 + i * MS, 40 * MS);
        }
        // threshold = delay_min 40 ms + cushion min(1 ms, 4 x 64 KiB / (2 x cwnd / srtt)) = 41 ms; strictly after it
        assertTrue(s.exited);
        assertEquals(t0 + 42 * MS, s.exitTime);
        assertEquals(HyStart.Found.ACK_TRAIN, s.hs.found());
        assertFalse(s.hs.active());
        assertEquals(1_000_000, HyStart.cushion(40 * MS, CWND));
        assertEquals(65_536L * 4 * 40 * MS / (2 * 100_000_000L), HyStart.cushion(40 * MS, 100_000_000L), "smaller at high rates");
    }

    @Test
    void anUnpacedSenderHalvesTheThreshold() {
        Script s = new Script(new HyStart(HyStart.Detect.TRAIN, false));
        long t0 = 1000 * MS;
        for (int i = 0; i <= 60 && !s.exited; i++) {
            s.ack(t0 + i * MS, 40 * MS);
        }
        assertEquals(t0 + 21 * MS, s.exitTime, "(40 + 1) / 2 = 20.5 ms");
    }

    @Test
    void aGapOfMoreThanTwoMillisecondsBreaksTheTrainForTheRestOfTheRound() {
        Script s = new Script(new HyStart(HyStart.Detect.TRAIN, true));
        long t0 = 1000 * MS;
        long t = t0;
        for (int i = 0; i < 10; i++, t += MS) {
            s.ack(t, 40 * MS);
        }
        t += 2 * MS;                                  // 3 ms after the previous ACK
        for (int i = 0; i < 60; i++, t += MS) {
            assertFalse(s.ack(t, 40 * MS), "train broken at " + (t - t0) / MS + " ms");
        }
        // a new round (a packet sent after the round began is acknowledged) restarts the train
        s.send();
        long start = t;
        for (int i = 0; i <= 60 && !s.exited; i++, t += MS) {
            s.ack(t, 40 * MS);
        }
        assertEquals(start + 42 * MS, s.exitTime);
        assertEquals(2, s.hs.rounds());
    }

    @Test
    void delayEndsSlowStartWhenTheRoundsMinimumExceedsTheMinimumByAnEighthClampedTo4To16Ms() {
        Script s = new Script(new HyStart(HyStart.Detect.DELAY, true));
        long t = 1000 * MS;
        for (int i = 0; i < 20; i++, t += 3 * MS) {         // ACKs 3 ms apart: no train anyway
            assertFalse(s.ack(t, 40 * MS));
        }
        s.send();
        // next round: 45 ms is not above 40 + 5; the check runs from the ninth sample on
        for (int i = 0; i < 20; i++, t += 3 * MS) {
            s.ack(t, 40 * MS + 5 * MS);
        }
        assertFalse(s.exited);
        s.send();
        for (int i = 0; i < 20 && !s.exited; i++, t += 3 * MS) {
            s.ack(t, 40 * MS + 5 * MS + 100_000);
            assertEquals(i == 8, s.exited, "sample " + (i + 1));
        }
        assertEquals(HyStart.Found.DELAY, s.hs.found());
    }

    @Test
    void theDelayThresholdIsClampedAndOneSpikeIsNotARise() {
        // 200 ms / 8 = 25 ms -> 16 ms
        Script high = new Script(new HyStart(HyStart.Detect.DELAY, true));
        long t = 0;
        high.ack(t += 3 * MS, 200 * MS);
        high.send();
        for (int i = 0; i < 12; i++) {
            high.ack(t += 3 * MS, 215 * MS);
        }
        assertFalse(high.exited, "215 ms is within 200 + 16");
        // 20 ms / 8 = 2.5 ms -> 4 ms
        Script low = new Script(new HyStart(HyStart.Detect.DELAY, true));
        low.ack(t += 3 * MS, 20 * MS);
        low.send();
        for (int i = 0; i < 12; i++) {
            low.ack(t += 3 * MS, 23_900_000);
        }
        assertFalse(low.exited, "23.9 ms is within 20 + 4");
        // RTT noise: single spikes within a round of 40 ms samples
        Script noisy = new Script(new HyStart(HyStart.Detect.DELAY, true));
        for (int i = 0; i < 100; i++) {
            noisy.ack(t += 3 * MS, i % 5 == 4 ? 90 * MS : 40 * MS);
        }
        assertFalse(noisy.exited);
    }

    @Test
    void nothingHappensBelowSixteenPacketsOfWindow() {
        Script s = new Script(new HyStart(HyStart.Detect.BOTH, true));
        s.cwnd = 15L * MDS;
        long t = 0;
        for (int i = 0; i < 100; i++) {
            s.ack(t += MS, (40 + i) * MS);
        }
        assertFalse(s.exited);
        assertEquals(0, s.hs.rounds());
        assertEquals(40 * MS, s.hs.delayMin(), "the minimum is still tracked");
    }
}
