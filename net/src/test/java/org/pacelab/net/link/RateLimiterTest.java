package org.pacelab.net.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
    private static final long S = 1_000_000_000L;

    /** Saturating input for 10 s: delivered bytes within 0.1 % of what the rate allows. */
    private static void assertRate(RateLimiter limiter, long bps) {
        LinkDirection d = new LinkDirection(Direction.DOWN,
                LinkTestSupport.model(limiter, QueueLimit.ofPackets(1000), false, 0, 0), new RandomStreams(1), LinkObserver.NONE);
        long interval = 1500L * 8 * S / (bps * 2); // offered at twice the rate
        int n = (int) (10 * S / interval);
        long[] times = new long[n];
        int[] sizes = new int[n];
        for (int i = 0; i < n; i++) { times[i] = i * interval; sizes[i] = 1500; }
        List<LinkTestSupport.Delivered> out = LinkTestSupport.run(d, times, sizes);
        long bytes = out.stream().filter(x -> x.time() <= 10 * S).mapToLong(x -> x.packet().size()).sum();
        double expected = bps * 10.0 / 8;
        assertTrue(Math.abs(bytes - expected) / expected < 0.001, "delivered " + bytes + " bytes, expected " + expected);
    }

    @Test void serializingRateIsExactOver10Seconds() { assertRate(new SerializingRateLimiter(40_000_000L), 40_000_000L); }

    @Test void tokenBucketRateIsExactOver10Seconds() { assertRate(new TokenBucketRateLimiter(40_000_000L, 1540), 40_000_000L); }

    @Test void gigabitRateIsExactOver10Seconds() { assertRate(new SerializingRateLimiter(1_000_000_000L), 1_000_000_000L); }

    @Test
    void serializerSpacesBackToBackPacketsByTheirTransmissionTime() {
        SerializingRateLimiter r = new SerializingRateLimiter(10_000_000L);
        assertEquals(1_200_000L, r.schedule(1500, 0, 0));          // 1500 B at 10 Mbit/s = 1.2 ms
        assertEquals(2_400_000L, r.schedule(1500, 0, 1_200_000L));
        assertEquals(10_000_000L + 800_000L, r.schedule(1000, 10_000_000L, 10_000_000L)); // after idle
    }

    @Test
    void tokenBucketSendsBurstThenRate() {
        TokenBucketRateLimiter r = new TokenBucketRateLimiter(40_000_000L, 3000);
        assertEquals(0, r.schedule(1500, 0, 0));        // full bucket: 3000 B
        assertEquals(0, r.schedule(1500, 0, 0));        // second packet of the burst
        assertEquals(300_000L, r.schedule(1500, 0, 0)); // 1500 B at 5 B/us
        assertTrue(r.accepts(3000));
        assertTrue(!r.accepts(3001));
    }

    @Test
    void oversizePacketsAreDroppedByTheTokenBucket() {
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        LinkDirection d = new LinkDirection(Direction.DOWN, LinkTestSupport.model(
                new TokenBucketRateLimiter(40_000_000L, 1540), QueueLimit.ofPackets(10), false, 0, 14),
                new RandomStreams(1), rec);
        List<LinkTestSupport.Delivered> out = LinkTestSupport.run(d, new long[] {0, 1000}, new int[] {1527, 1526});
        assertEquals(List.of(0L), rec.ids(EventType.DROP));
        assertEquals(DropCause.OVERSIZE, rec.events.stream().filter(e -> e.type() == EventType.DROP).findFirst().orElseThrow().cause());
        assertEquals(1, out.size());
    }
}
