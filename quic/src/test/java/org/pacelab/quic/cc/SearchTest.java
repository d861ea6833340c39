package org.pacelab.quic.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.quic.cc.Packets.MS;
import static org.pacelab.quic.cc.Packets.packet;

import java.util.List;
import java.util.function.LongUnaryOperator;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.recovery.RttEstimator;

/** SEARCH (draft-chung-ccwg-search-09) on scripted sending and delivery. */
class SearchTest {
    private static final long RTT = 100 * MS;

    /**
     * One ACK per millisecond: the sender sends {@code sentPerMs.apply(t)} bytes each millisecond and the ACK
     * delivers what was sent one RTT earlier, at most {@code capPerMs} bytes a millisecond (a bottleneck; what it
     * cannot carry is lost, as a full buffer would drop it). Returns the time SEARCH ended slow start, or -1.
     */
    private static long run(Search s, LongUnaryOperator sentPerMs, long capPerMs, long until, LongUnaryOperator rttAt) {
        RttEstimator rtt = new RttEstimator();
        long[] sent = new long[(int) (until / MS) + 1];
        long pn = 0;
        for (long t = MS; t <= until; t += MS) {
            int i = (int) (t / MS);
            sent[i] = sentPerMs.applyAsLong(t);
            s.onPacketSent(packet(pn++, t, (int) sent[i]));
            long r = rttAt.applyAsLong(t);
            int back = (int) (i - r / MS);
            long delivered = back > 0 ? Math.min(sent[back], capPerMs) : 0;
            if (delivered == 0) {
                continue;
            }
            rtt.onSample(t, r, 0, 0, true);
            AckEvent ack = new AckEvent(t, List.of(packet(pn++, t - r, (int) delivered)), rtt.estimates(), 0, 0, null, false, 0);
            if (s.onAck(ack, 0, 1200)) {
                return t;
            }
        }
        return -1;
    }

    /** Slow start: the sending rate doubles every RTT, from 12 000 bytes per RTT. */
    private static long slowStart(long t) {
        return Math.max(1, (long) (120 * Math.pow(2, (double) t / RTT)));
    }

    @Test
    void deliveryThatKeepsUpWithTheSendingRateNeverEndsSlowStart() {
        Search s = new Search(Search.THRESH);
        assertEquals(-1, run(s, SearchTest::slowStart, Long.MAX_VALUE, 1500 * MS, t -> RTT));
        assertEquals(35 * MS, s.binDuration(), "3.5 initial RTTs in 10 bins");
        assertTrue(s.lastNormDiff() < 0.05, "delivered about what was sent: " + s.lastNormDiff());
        assertTrue(s.active());
    }

    @Test
    void aBottleneckEndsSlowStartOnceDeliveryFallsAQuarterShortOfTheSentBytes() {
        long cap = 5_000;                                   // 5 MB/s: the sending rate passes it at about 540 ms
        long crossing = (long) (RTT * Math.log(cap / 120.0) / Math.log(2));
        Search s = new Search(Search.THRESH);
        long exit = run(s, SearchTest::slowStart, cap, 3000 * MS, t -> RTT);
        assertTrue(exit > crossing + RTT, "exit at " + exit / MS + " ms, the first ACKs at the capped rate come after "
                + (crossing + RTT) / MS + " ms");
        assertTrue(exit < crossing + 4 * RTT, "exit at " + exit / MS + " ms");
        assertTrue(s.lastNormDiff() >= Search.THRESH);
        assertFalse(s.active());
        // a higher threshold waits longer for the same shortfall
        long later = run(new Search(0.5), SearchTest::slowStart, cap, 3000 * MS, t -> RTT);
        assertTrue(later > exit, later / MS + " ms vs " + exit / MS + " ms");
    }

    @Test
    void anRttThatOutgrowsTheLookBackStopsTheEvaluationAndAGapRestartsIt() {
        // an RTT of 700 ms needs 20 bins of look-back, more than the 15 extra bins kept
        Search inflated = new Search(Search.THRESH);
        long exit = run(inflated, SearchTest::slowStart, 5_000, 2500 * MS, t -> t < 500 * MS ? RTT : 700 * MS);
        assertEquals(-1, exit, "no evaluation without enough history");
        // no ACK for more than W bins (350 ms): the history is dropped
        Search gap = new Search(Search.THRESH);
        RttEstimator rtt = new RttEstimator();
        rtt.onSample(0, RTT, 0, 0, true);
        gap.onAck(new AckEvent(MS, List.of(packet(0, 0, 1200)), rtt.estimates(), 0, 0, null, false, 0), 0, 1200);
        gap.onAck(new AckEvent(2 * MS, List.of(packet(1, 0, 1200)), rtt.estimates(), 0, 0, null, false, 0), 0, 1200);
        gap.onAck(new AckEvent(500 * MS, List.of(packet(2, 0, 1200)), rtt.estimates(), 0, 0, null, false, 0), 0, 1200);
        assertEquals(1, gap.resets());
    }
}
