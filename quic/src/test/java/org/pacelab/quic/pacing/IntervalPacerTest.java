package org.pacelab.quic.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.pacelab.quic.pacing.PacerScript.MS;
import static org.pacelab.quic.pacing.PacerScript.US;
import static org.pacelab.quic.pacing.PacerScript.rate;

import org.junit.jupiter.api.Test;

/** Release times for scripted sequences, worked out by hand: 1 000 000 B/s means 1000 bytes per ms. */
class IntervalPacerTest {

    @Test
    void oneGapPerPacketWithAOnePacketQuantum() {
        IntervalPacer pacer = new IntervalPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 1000));
        assertEquals(0, s.sendNext(0, 1000));
        assertEquals(MS, s.sendNext(0, 1000));
        assertEquals(2 * MS, s.sendNext(MS, 1000));
        assertEquals(3 * MS, s.sendNext(2 * MS, 500));
        assertEquals(3500 * US, s.sendNext(3 * MS, 1000));  // after 500 bytes the gap is 0.5 ms
        assertEquals(4500 * US, s.sendNext(3500 * US, 1000));
    }

    @Test
    void latenessIsPaidBackAtMostHalfAGapAtATime() {
        IntervalPacer pacer = new IntervalPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 1000));
        assertEquals(0, s.sendNext(0, 1000));
        assertEquals(MS, s.ask(0, 1000));
        // wakes 0.4 ms late: intended 1 ms, departure 1.4 ms; the next gap is 1 - 0.4 ms
        assertEquals(MS, s.trySend(1400 * US, 1000));
        assertEquals(0, pacer.compensation());
        assertEquals(2 * MS, s.ask(1400 * US, 1000));
        // wakes 1.5 ms late: departure 3.5 ms; 1.5 ms owed, half a gap (0.5 ms) repaid per packet
        assertEquals(2 * MS, s.trySend(3500 * US, 1000));
        assertEquals(4 * MS, s.ask(3500 * US, 1000));
        assertEquals(MS, pacer.compensation());
        assertEquals(4 * MS, s.sendNext(4 * MS, 1000));
        assertEquals(4500 * US, s.sendNext(4 * MS, 1000));
        assertEquals(5 * MS, s.sendNext(4500 * US, 1000));
        assertEquals(0, pacer.compensation());
        assertEquals(6 * MS, s.sendNext(5 * MS, 1000));
    }

    @Test
    void compensationIsCappedAtOneRttAndClearedWhenIdle() {
        IntervalPacer pacer = new IntervalPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, new PacingRate(1_000_000, 1000, 10_000, 2 * MS, false));
        assertEquals(0, s.sendNext(0, 1000));
        s.ask(0, 1000);
        assertEquals(MS, s.trySend(11 * MS, 1000));         // 10 ms late, capped at srtt = 2 ms, 0.5 ms repaid
        assertEquals(1500 * US, pacer.compensation());
        s.update(11 * MS, new PacingRate(1_000_000, 1000, 10_000, 2 * MS, true));
        assertEquals(0, pacer.compensation());
        assertEquals(11500 * US, s.ask(11 * MS, 1000));
    }

    @Test
    void burstsOfOneQuantumShareARelease() {
        IntervalPacer pacer = new IntervalPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 3000));
        assertEquals(0, s.sendNext(0, 1000));
        assertEquals(0, s.sendNext(0, 1000));
        assertEquals(0, s.sendNext(0, 1000));
        assertEquals(3 * MS, s.sendNext(0, 1000));          // 3000 bytes took 3 ms
        assertEquals(3 * MS, s.sendNext(3 * MS, 1000));
        // a packet that does not fit the open burst closes it: 2000 bytes since 3 ms -> 5 ms
        assertEquals(5 * MS, s.sendNext(3 * MS, 1500));
    }

    @Test
    void rateChangeAppliesToTheNextGap() {
        IntervalPacer pacer = new IntervalPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 1000));
        assertEquals(0, s.sendNext(0, 1000));
        s.update(500 * US, rate(4_000_000, 1000));
        assertEquals(MS, s.sendNext(500 * US, 1000));       // this gap was computed at the old rate
        assertEquals(1250 * US, s.sendNext(MS, 1000));
    }

    @Test
    void idleSenderIsNotTreatedAsLate() {
        IntervalPacer pacer = new IntervalPacer(0);
        PacerScript s = new PacerScript(pacer);
        s.update(0, rate(1_000_000, 1000));
        assertEquals(0, s.sendNext(0, 1000));
        // nothing to send until 50 ms: the packet leaves at once with intended time 50 ms and nothing owed
        assertEquals(50 * MS, s.trySend(50 * MS, 1000));
        assertEquals(0, pacer.compensation());
        assertEquals(51 * MS, s.ask(50 * MS, 1000));
    }
}
