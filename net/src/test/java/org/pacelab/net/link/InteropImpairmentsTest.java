package org.pacelab.net.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The QUIC Interop Runner's impairments: burst-limited loss and corruption, blackholes, drop lists. */
class InteropImpairmentsTest {
    private static DirectionModel model(LossModel loss, Corruption corruption, Blackhole blackhole, DropList drops) {
        return new DirectionModel(0, 38, loss, corruption, 0, RateLimiter.UNLIMITED, 0, QueueLimit.UNLIMITED, false, 0,
                new Jitter.None(), false, blackhole, drops);
    }

    @Test
    void burstLimitedLossNeverLosesMoreThanTheLimitInARow() {
        LossModel m = new LossModel.BurstLimited(new LossModel.Bernoulli(0.9), 3);
        SplittableRandom rng = new SplittableRandom(7);
        int run = 0, longest = 0, lost = 0;
        for (int i = 0; i < 100_000; i++) {
            if (m.lose(rng)) {
                run++;
                lost++;
                longest = Math.max(longest, run);
            } else {
                run = 0;
            }
        }
        assertEquals(3, longest);
        // every fourth packet of a full run is forced through: about 1 - 1/(1 + 0.9 + 0.81 + 0.729) of them are lost
        assertEquals(0.708, lost / 100_000.0, 0.01);
    }

    @Test
    void runnerCorruptionReplacesOneByteInTheFirstFiftyAndLimitsBursts() {
        Corruption c = new Corruption(1.0, 3, 50, true);
        SplittableRandom rng = new SplittableRandom(3);
        byte[] original = new byte[1200];
        int corrupted = 0;
        for (int i = 0; i < 400; i++) {
            Packet out = c.apply(new Packet(i, 1, 1228, ByteBuffer.wrap(original)), rng);
            if (i % 4 == 3) {
                assertEquals(null, out, "the fourth packet in a row passes");
                continue;
            }
            corrupted++;
            byte[] got = new byte[1200];
            out.payload().duplicate().get(got);
            int changed = 0;
            for (int k = 0; k < got.length; k++) {
                if (got[k] != original[k]) {
                    changed++;
                    assertTrue(k < 50, "byte " + k + " lies outside the first 50");
                }
            }
            assertEquals(1, changed);
        }
        assertEquals(300, corrupted);
        assertEquals(0, original[0] | original[49]);
    }

    @Test
    void versionNegotiationPacketsAreNeverCorrupted() {
        Corruption c = new Corruption(1.0, 0, 50, true);
        byte[] vn = {(byte) 0xc5, 0, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 1};
        assertEquals(null, c.apply(new Packet(1, 1, 50, ByteBuffer.wrap(vn)), new SplittableRandom(1)));
        byte[] initial = vn.clone();
        initial[4] = 1;
        assertTrue(c.apply(new Packet(2, 1, 50, ByteBuffer.wrap(initial)), new SplittableRandom(1)) != null);
    }

    @Test
    void blackholeDropsEverythingWhileDarkCountingFromTheFirstPacket() {
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        long s = 1_000_000_000L;
        LinkDirection d = new LinkDirection(Direction.DOWN, model(new LossModel.None(), Corruption.NONE,
                new Blackhole(5 * s, 2 * s, 1), DropList.NONE), new RandomStreams(1), rec);
        long start = 3 * s;
        long[] times = new long[14];
        int[] sizes = new int[14];
        for (int i = 0; i < times.length; i++) {
            times[i] = start + i * s;   // one packet a second from 3 s on: the origin is 3 s
            sizes[i] = 100;
        }
        LinkTestSupport.run(d, times, sizes);
        assertEquals(List.of(5L, 6L), rec.ids(EventType.DROP));
        assertTrue(rec.events.stream().filter(e -> e.type() == EventType.DROP).allMatch(e -> e.cause() == DropCause.BLACKHOLE));
    }

    @Test
    void repeatedBlackholeGoesDarkEachCycleThenStaysOpen() {
        Blackhole b = new Blackhole(10, 5, 2);
        List<Long> dark = new ArrayList<>();
        for (long t = 100; t < 160; t++) {
            if (b.swallows(t)) dark.add(t - 100);
        }
        assertEquals(List.of(10L, 11L, 12L, 13L, 14L, 25L, 26L, 27L, 28L, 29L), dark);
    }

    @Test
    void dropListDropsThePacketsAtTheListedPositions() {
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        LinkDirection d = new LinkDirection(Direction.UP, model(new LossModel.None(), Corruption.NONE, Blackhole.NONE,
                new DropList(new long[] {2, 3, 4, 5, 6, 7})), new RandomStreams(1), rec);
        LinkTestSupport.run(d, new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, new int[] {1200, 1200, 1200, 1200, 1200, 1200, 1200, 1200, 1200});
        // packet ids count from 0, positions from 1
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), rec.ids(EventType.DROP));
        assertTrue(rec.events.stream().filter(e -> e.type() == EventType.DROP).allMatch(e -> e.cause() == DropCause.LISTED));
    }
}
