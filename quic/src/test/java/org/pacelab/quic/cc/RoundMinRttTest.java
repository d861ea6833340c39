package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.packet;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.recovery.RttEstimator;

/** {@link RoundMinRtt}: the least RTT sample of the current and the previous round, rounds counted by send time. */
class RoundMinRttTest {
    private final RttEstimator rtt = new RttEstimator();
    private final RoundMinRtt round = new RoundMinRtt();
    private long pn;

    /** An ACK at {@code now} of one packet sent {@code sample} before it. */
    private void ack(long now, long sample) {
        rtt.onSample(now, sample, 0, 0, true);
        round.onAck(new AckEvent(now, List.of(packet(pn++, now - sample, 1200)), rtt.estimates(), 0, 0, null, false, 0));
    }

    @Test
    void noSampleNoValue() {
        assertEquals(Long.MAX_VALUE, round.value());
    }

    @Test
    void theRoundsLeastSampleWhileTheRoundRuns() {
        ack(100 * MS, 60 * MS); // begins a round at 100 ms
        ack(101 * MS, 55 * MS);
        ack(102 * MS, 70 * MS);
        assertEquals(55 * MS, round.value());
    }

    @Test
    void aNewRoundKeepsThePreviousOnesLeastThenForgetsIt() {
        ack(100 * MS, 50 * MS); // round 1 begins at 100 ms
        ack(120 * MS, 60 * MS); // sent at 60 ms: still round 1
        ack(160 * MS, 58 * MS); // sent at 102 ms, after round 1 began: round 2 begins, round 1's 50 ms kept
        assertEquals(50 * MS, round.value());
        ack(170 * MS, 65 * MS); // sent at 105 ms: round 2
        assertEquals(50 * MS, round.value());
        ack(230 * MS, 62 * MS); // sent at 168 ms, after round 2 began at 160: round 3; round 1 forgotten
        assertEquals(58 * MS, round.value());
    }

    @Test
    void followsAQueueThatDrainsWithinARound() {
        for (int i = 0; i < 10; i++) {
            ack((100 + i) * MS, 120 * MS);
        }
        assertEquals(120 * MS, round.value());
        ack(110 * MS, 41 * MS); // the same round: the queue drained
        assertEquals(41 * MS, round.value());
    }
}
