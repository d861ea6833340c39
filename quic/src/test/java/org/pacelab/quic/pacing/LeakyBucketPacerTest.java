package org.pacelab.quic.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.pacelab.quic.pacing.PacerScript.MS;
import static org.pacelab.quic.pacing.PacerScript.US;
import static org.pacelab.quic.pacing.PacerScript.rate;

import org.junit.jupiter.api.Test;

/** Release times for scripted sequences, worked out by hand: 1 000 000 B/s means 1000 bytes per ms. */
class LeakyBucketPacerTest {

    @Test
    void pacesFromAnEmptyBucketAndCompensatesALateSenderWithCredit() {
        LeakyBucketPacer pacer = new LeakyBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 3000));               // bucket of 3 ms
        assertEquals(3 * MS, pacer.maxCredit());
        assertEquals(MS, s.ask(0, 1000));                   // empty bucket: 1 ms of credit needed
        assertEquals(MS, s.trySend(MS, 1000));
        assertEquals(2 * MS, s.ask(MS, 1000));
        // the sender wakes up 0.5 ms late: the packet's intended time stays 2 ms, and the 0.5 ms of extra
        // credit lets the next packet keep the schedule
        assertEquals(2 * MS, s.trySend(2500 * US, 1000));
        assertEquals(500 * US, pacer.credit());
        assertEquals(3 * MS, s.ask(2500 * US, 1000));
        assertEquals(3 * MS, s.trySend(3 * MS, 1000));
    }

    @Test
    void burstsOneQuantumAfterIdle() {
        LeakyBucketPacer pacer = new LeakyBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 3000));
        assertEquals(MS, s.sendNext(0, 1000));
        // idle for 9 ms: the credit is capped at the quantum (3 ms): three packets leave at once
        assertEquals(10 * MS, s.trySend(10 * MS, 1000));
        assertEquals(10 * MS, s.trySend(10 * MS, 1000));
        assertEquals(10 * MS, s.trySend(10 * MS, 1000));
        assertEquals(-1, s.trySend(10 * MS, 1000));
        assertEquals(11 * MS, s.ask(10 * MS, 1000));
    }

    @Test
    void rateChangeKeepsCreditInTimeAndClipsItToTheNewBucket() {
        LeakyBucketPacer pacer = new LeakyBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 3000));
        assertEquals(MS, s.sendNext(0, 1000));
        // 2 ms later the rate doubles: the 2 ms of credit are clipped to the new bucket, 3000 B / 2 MB/s = 1.5 ms
        s.update(3 * MS, rate(2_000_000, 3000));
        assertEquals(1500 * US, pacer.credit());
        assertEquals(3 * MS, s.trySend(3 * MS, 1000));      // costs 0.5 ms
        assertEquals(3 * MS, s.trySend(3 * MS, 1000));
        assertEquals(3 * MS, s.trySend(3 * MS, 1000));
        assertEquals(3500 * US, s.ask(3 * MS, 1000));
    }

    @Test
    void variableSizesCostTheirOwnTransmissionTime() {
        LeakyBucketPacer pacer = new LeakyBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 1500));
        assertEquals(500 * US, s.sendNext(0, 500));
        assertEquals(2 * MS, s.sendNext(500 * US, 1500));
        assertEquals(2200 * US, s.sendNext(2 * MS, 200));
    }

    @Test
    void aPacketSentWithoutAskingLeavesDebtOfAtMostOnePacket() {
        LeakyBucketPacer pacer = new LeakyBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 3000));
        pacer.onPacketSent(0, 1000);                        // e.g. a probe sent regardless of pacing
        pacer.onPacketSent(0, 1000);
        assertEquals(-MS, pacer.credit());                 // floored at minus one packet
        assertEquals(2 * MS, s.ask(0, 1000));
    }

    @Test
    void initialBurstLeavesUnpacedThenPacingStartsEmpty() {
        LeakyBucketPacer pacer = new LeakyBucketPacer(2);
        PacerScript s = new PacerScript(pacer);
        assertEquals(0, s.trySend(0, 1000));                // no rate yet: unpaced, burst untouched
        assertEquals(2, pacer.initialBurstLeft());
        s.update(0, rate(1_000_000, 3000));
        assertEquals(0, s.trySend(0, 1000));
        assertEquals(0, s.trySend(0, 1000));
        assertEquals(0, pacer.initialBurstLeft());
        assertEquals(MS, s.ask(0, 1000));
    }
}
