package org.pacelab.quic.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.cc.RateSample;
import org.pacelab.quic.packet.PacketSpace;

/** Samples checked against values worked out by hand from draft-cheng-iccrg-delivery-rate-estimation. */
class DeliveryRateEstimatorTest {
    private static final long MS = 1_000_000L;

    private static SentPacket packet(long pn, long timeSent) {
        return new SentPacket(PacketSpace.APPLICATION, pn, timeSent, timeSent, 1000, true, true, List.of());
    }

    @Test
    void samplesFollowTheDraftStepByStep() {
        DeliveryRateEstimator e = new DeliveryRateEstimator();
        SentPacket p0 = packet(0, 0);
        SentPacket p1 = packet(1, MS);
        SentPacket p2 = packet(2, 2 * MS);
        e.onPacketSent(p0, 0, 0);          // idle: first_send_time = delivered_time = 0
        e.onPacketSent(p1, 1000, MS);
        e.onPacketSent(p2, 2000, 2 * MS);
        assertEquals(3000, p2.txInFlight);
        assertEquals(0, p2.delivered);

        // ACK of p0 at 100 ms: send_elapsed 0, ack_elapsed 100 ms, 1000 bytes -> 10 000 B/s
        e.onPacketAcked(p0, 100 * MS);
        RateSample s1 = e.generateRateSample(100 * MS);
        assertEquals(new RateSample(10_000, 100 * MS, 1000, 0, 0, false, 100 * MS, 1000, 0, 1000, 0), s1);
        assertEquals(1000, e.delivered());
        assertEquals(100 * MS, e.deliveredTime());

        // p3 sent with p1, p2 in flight: it snapshots C.delivered = 1000, C.delivered_time = 100 ms and
        // C.first_send_time = 0 (the send time of the last delivered packet)
        SentPacket p3 = packet(3, 101 * MS);
        e.onPacketSent(p3, 2000, 101 * MS);
        assertEquals(1000, p3.delivered);
        assertEquals(100 * MS, p3.deliveredTime);
        assertEquals(0, p3.firstSentTime);

        // one ACK for p1 and p2 at 102 ms: p2 is the newest; interval = max(2 ms - 0, 102 ms - 0) = 102 ms;
        // delivered = 3000 - 0 -> 3000 / 0.102 s = 29 411 B/s
        e.onPacketAcked(p1, 102 * MS);
        e.onPacketAcked(p2, 102 * MS);
        RateSample s2 = e.generateRateSample(100 * MS);
        assertEquals(new RateSample(29_411, 102 * MS, 3000, 0, 0, false, 100 * MS, 2000, 0, 3000, 0), s2);

        // p3 lost; p4 sent after everything left the network: a new flight starts at 150 ms
        e.onPacketLost(p3);
        assertEquals(1000, e.lost());
        SentPacket p4 = packet(4, 150 * MS);
        e.onPacketSent(p4, 0, 150 * MS);
        assertEquals(150 * MS, e.firstSendTime());
        assertEquals(1000, p4.lostBefore);

        // ACK of p4 after 10 ms: shorter than min_rtt -> no reliable rate; the loss is reported once
        e.onPacketAcked(p4, 160 * MS);
        RateSample s3 = e.generateRateSample(100 * MS);
        assertEquals(new RateSample(0, 10 * MS, 1000, 3000, 150 * MS, false, 10 * MS, 1000, 1000, 1000, 0), s3);
    }

    @Test
    void sendRateCapsAggregatedAcks() {
        // p0 and px leave at 0; p0 is acknowledged at 100 ms (C.delivered_time = 100 ms, C.first_send_time = 0).
        // With px still in flight, p1..p10 leave at 100, 110, ..., 190 ms and are acknowledged together at
        // 200 ms: ack_elapsed = 200 - 100 = 100 ms, send_elapsed = 190 - 0 = 190 ms, so the slower send rate
        // bounds the sample: 10 000 bytes / 190 ms
        DeliveryRateEstimator e = new DeliveryRateEstimator();
        SentPacket p0 = packet(0, 0);
        SentPacket px = packet(100, 0);
        e.onPacketSent(p0, 0, 0);
        e.onPacketSent(px, 1000, 0);
        e.onPacketAcked(p0, 100 * MS);
        e.generateRateSample(10 * MS);
        SentPacket[] p = new SentPacket[10];
        for (int i = 0; i < 10; i++) {
            p[i] = packet(i + 1, (100 + 10 * i) * MS);
            e.onPacketSent(p[i], 1000 + i * 1000L, (100 + 10 * i) * MS);
        }
        for (SentPacket x : p) {
            e.onPacketAcked(x, 200 * MS);
        }
        RateSample s = e.generateRateSample(40 * MS);
        assertEquals(190 * MS, s.interval());
        assertEquals(10_000, s.delivered());
        assertEquals(10_000 * 1_000_000_000L / (190 * MS), s.deliveryRate());
        assertEquals(10 * MS, s.rtt());
        assertEquals(10_000, s.newlyAcked());
        assertEquals(11_000, s.txInFlight());
    }

    @Test
    void appLimitedMarkLastsUntilTheBubbleIsDelivered() {
        DeliveryRateEstimator e = new DeliveryRateEstimator();
        SentPacket a = packet(0, 0);
        e.onPacketSent(a, 0, 0);
        e.markAppLimited(1000);                 // C.app_limited = delivered 0 + in flight 1000
        assertTrue(e.isAppLimited());
        SentPacket b = packet(1, MS);
        e.onPacketSent(b, 1000, MS);
        assertTrue(b.isAppLimited);
        assertFalse(a.isAppLimited);

        e.onPacketAcked(a, 50 * MS);
        RateSample sa = e.generateRateSample(10 * MS);
        assertFalse(sa.isAppLimited());
        assertTrue(e.isAppLimited(), "delivered (1000) has not passed the mark (1000)");

        e.onPacketAcked(b, 51 * MS);
        RateSample sb = e.generateRateSample(10 * MS);
        assertTrue(sb.isAppLimited());
        assertFalse(e.isAppLimited(), "delivered (2000) passed the mark: the bubble is gone");
    }

    @Test
    void noSampleWithoutDeliveryAndNoDoubleCounting() {
        DeliveryRateEstimator e = new DeliveryRateEstimator();
        assertNull(e.generateRateSample(0));
        SentPacket a = packet(0, 0);
        e.onPacketSent(a, 0, 0);
        e.onPacketAcked(a, 10 * MS);
        e.onPacketAcked(a, 11 * MS);
        assertEquals(1000, e.delivered());
        assertNotNull(e.generateRateSample(0));
        assertNull(e.generateRateSample(0));
    }
}
