package org.pacelab.net.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The quic-steps bottleneck: tbf 40 Mbit/s (burst 1540 B, 14-byte Ethernet header charged) with a netem child
 * delaying 20 ms whose 143-packet limit covers delayed packets and those waiting for tokens.
 */
class QuicStepsQueueTest {
    private static final long US = 1000;

    private static LinkDirection quicStepsDown(LinkObserver obs) {
        return new LinkDirection(Direction.DOWN, LinkTestSupport.model(new TokenBucketRateLimiter(40_000_000L, 1540),
                QueueLimit.ofPackets(143), true, 20_000 * US, 14), new RandomStreams(7), obs);
    }

    /**
     * Hand computation. 1386-byte packets (1400 B charged) arrive every 140 us (80 Mbit/s, twice the rate).
     * Tokens: 1400 B take 280 us at 5 B/us. Packet 0 leaves at 0 (full bucket), packet 1 at 252 us (840 B of
     * tokens at 140 us, 560 B missing = 112 us), packet k >= 1 at 252 + 280 (k - 1) us; each is delivered 20 ms
     * later and counts against the limit from arrival to delivery. Nothing is delivered before 20 ms, so
     * packets 0..142 fill the limit (packet 142 arrives at 19.88 ms). Packet 143 (20.02 ms) finds packet 0
     * delivered (20.00 ms): admitted. Packet 144 (20.16 ms): packet 1 is due at 20.252 ms, the limit is full:
     * dropped. From then on one packet leaves every 280 us and two arrive: every even packet from 144 is dropped.
     */
    @Test
    void dropsExactlyWhereTheHandComputationSays() {
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        int n = 400;
        long[] times = LongStream.range(0, n).map(k -> 140 * US * k).toArray();
        int[] sizes = new int[n];
        java.util.Arrays.fill(sizes, 1386);
        List<LinkTestSupport.Delivered> out = LinkTestSupport.run(quicStepsDown(rec), times, sizes);
        List<Long> expectedDrops = LongStream.rangeClosed(72, 199).map(i -> 2 * i).boxed().toList(); // 144, 146, ..., 398
        assertEquals(expectedDrops, rec.ids(EventType.DROP));
        assertEquals(n - expectedDrops.size(), out.size());
        assertEquals(20_000 * US, out.get(0).time());
        assertEquals(20_252 * US, out.get(1).time());
        assertEquals(20_532 * US, out.get(2).time());
    }

    /**
     * The model applies the rate limiter before the delay line and counts delay-line packets against the limit;
     * Linux applies netem's delay first and tbf takes packets once due. For a constant delay both give identical
     * delivery times and drops: a reference of the kernel's order (delay first, then tokens) agrees on any input.
     */
    @Property(tries = 200)
    void sharedLimitEqualsTbfWithNetemChild(@ForAll @Size(min = 1, max = 400) List<@IntRange(min = 0, max = 600) Integer> gapsUs,
                                            @ForAll @IntRange(min = 60, max = 1500) int size) {
        int n = gapsUs.size();
        long[] times = new long[n];
        int[] sizes = new int[n];
        long t = 0;
        for (int i = 0; i < n; i++) { t += gapsUs.get(i) * US; times[i] = t; sizes[i] = Math.min(1526, size + (i % 3) * 10); }
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        List<LinkTestSupport.Delivered> out = LinkTestSupport.run(quicStepsDown(rec), times, sizes);

        // Reference: netem (limit 143 over every packet not yet released by tbf) delays each admitted packet by
        // 20 ms; tbf then releases due packets in order as tokens allow.
        long delay = 20_000 * US;
        TokenBucketRateLimiter tbf = new TokenBucketRateLimiter(40_000_000L, 1540);
        List<long[]> released = new ArrayList<>(); // {id, release}
        List<Long> drops = new ArrayList<>();
        long lastRelease = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            long a = times[i];
            long inNetem = released.stream().filter(r -> r[1] > a).count();
            if (inNetem >= 143) { drops.add((long) i); continue; }
            long due = a + delay;
            long release = tbf.schedule(sizes[i] + 14, due, Math.max(due, lastRelease));
            lastRelease = release;
            released.add(new long[] {i, release});
        }
        assertEquals(drops, rec.ids(EventType.DROP));
        assertEquals(released.stream().map(r -> r[1]).toList(), out.stream().map(LinkTestSupport.Delivered::time).toList());
    }
}
