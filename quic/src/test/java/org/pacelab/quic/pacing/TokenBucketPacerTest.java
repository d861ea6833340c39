package org.pacelab.quic.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.pacelab.quic.pacing.PacerScript.MS;
import static org.pacelab.quic.pacing.PacerScript.US;
import static org.pacelab.quic.pacing.PacerScript.rate;

import org.junit.jupiter.api.Test;

/** Release times for scripted sequences, worked out by hand: 1 000 000 B/s means 1000 bytes per ms. */
class TokenBucketPacerTest {

    @Test
    void tokensAccrueAtTheRateFromAnEmptyBucket() {
        TokenBucketPacer pacer = new TokenBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 3000));
        assertEquals(MS, s.ask(0, 1000));
        assertEquals(MS, s.trySend(MS, 1000));
        assertEquals(2 * MS, s.ask(MS, 1000));
        // 0.5 ms late: 1500 tokens, intended time 2 ms, 500 left: the next packet is due at 3 ms
        assertEquals(2 * MS, s.trySend(2500 * US, 1000));
        assertEquals(500, pacer.tokens());
        assertEquals(3 * MS, s.ask(2500 * US, 1000));
    }

    @Test
    void burstsOneQuantumAfterIdleAndRoundsWaitsUp() {
        TokenBucketPacer pacer = new TokenBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(3_000_000, 3000));
        assertEquals(333_334, s.sendNext(0, 1000));         // 1000 / 3 MB/s = 333 333.3 ns, rounded up
        // idle until 20 ms: the bucket is full (3000 bytes): three packets leave at once
        assertEquals(20 * MS, s.trySend(20 * MS, 1000));
        assertEquals(20 * MS, s.trySend(20 * MS, 1000));
        assertEquals(20 * MS, s.trySend(20 * MS, 1000));
        assertEquals(-1, s.trySend(20 * MS, 1000));
        assertEquals(20 * MS + 333_334, s.ask(20 * MS, 1000));
    }

    @Test
    void forgivesDebtAndKeepsTokensAcrossRateChanges() {
        TokenBucketPacer pacer = new TokenBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 3000));
        pacer.onPacketSent(0, 1000);                         // sent regardless: tokens stay at 0, no debt
        assertEquals(0, pacer.tokens());
        assertEquals(MS, s.ask(0, 1000));
        // 2 ms at 1 MB/s = 2000 tokens, then the rate halves; the quantum shrinks to 1500: clipped
        s.update(2 * MS, rate(500_000, 1500));
        assertEquals(1500, pacer.tokens());
        // the pacer had announced 1 ms: the packet is 1 ms late, its intended time stays 1 ms
        assertEquals(MS, s.trySend(2 * MS, 1000));
        assertEquals(3 * MS, s.ask(2 * MS, 1000));            // 500 missing at 0.5 MB/s
    }

    @Test
    void packetLargerThanTheQuantumNeedsAFullBucket() {
        TokenBucketPacer pacer = new TokenBucketPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 1000));
        assertEquals(MS, s.sendNext(0, 1500));
        assertEquals(2 * MS, s.ask(MS, 1000));
    }
}
