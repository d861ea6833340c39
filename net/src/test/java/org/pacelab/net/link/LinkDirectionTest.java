package org.pacelab.net.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkDirectionTest {
    @Test
    void wireModelSpreadsABurstIntoBackToBackFrames() {
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        DirectionModel m = new DirectionModel(1_000_000_000L, 38, new LossModel.None(), 0, 0, RateLimiter.UNLIMITED, 0,
                QueueLimit.UNLIMITED, false, 0, new Jitter.None(), false);
        LinkDirection d = new LinkDirection(Direction.DOWN, m, new RandomStreams(1), rec);
        LinkTestSupport.run(d, new long[] {0, 0, 0, 0}, new int[] {1500, 1500, 1500, 1500});
        // (1500 + 38) bytes * 8 ns per byte at 1 Gbit/s = 12304 ns per frame
        assertEquals(List.of(12_304L, 24_608L, 36_912L, 49_216L), rec.times(EventType.TAP));
    }

    @Test
    void packetLimitIsDropTail() {
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        LinkDirection d = new LinkDirection(Direction.DOWN, LinkTestSupport.model(new SerializingRateLimiter(10_000_000L),
                QueueLimit.ofPackets(3), false, 1_000_000, 0), new RandomStreams(1), rec);
        LinkTestSupport.run(d, new long[] {0, 0, 0, 0, 0}, new int[] {1000, 1000, 1000, 1000, 1000});
        assertEquals(List.of(3L, 4L), rec.ids(EventType.DROP));
    }

    @Test
    void byteLimitAdmitsWhatFits() {
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        LinkDirection d = new LinkDirection(Direction.DOWN, LinkTestSupport.model(new SerializingRateLimiter(10_000_000L),
                QueueLimit.ofBytes(2500), false, 0, 0), new RandomStreams(1), rec);
        LinkTestSupport.run(d, new long[] {0, 0, 0, 0}, new int[] {1000, 1000, 1000, 500});
        assertEquals(List.of(2L), rec.ids(EventType.DROP));
    }

    @Test
    void corruptionFlipsOneBitOfACopyAndDuplicationDoubles() {
        DirectionModel m = new DirectionModel(0, 38, new LossModel.None(), 1.0, 1.0, RateLimiter.UNLIMITED, 0,
                QueueLimit.UNLIMITED, false, 0, new Jitter.None(), false);
        LinkDirection d = new LinkDirection(Direction.DOWN, m, new RandomStreams(1), LinkObserver.NONE);
        byte[] original = new byte[64];
        List<Packet> out = new ArrayList<>();
        d.offer(new Packet(1, 1, 64, ByteBuffer.wrap(original)), 0);
        d.advanceTo(0, (p, t) -> out.add(p));
        assertEquals(2, out.size());
        byte[] got = new byte[64];
        out.get(0).payload().duplicate().get(got);
        int bits = 0;
        for (int i = 0; i < 64; i++) bits += Integer.bitCount((got[i] ^ original[i]) & 0xff);
        assertEquals(1, bits);
        assertEquals(0, original[0] | original[63]); // the sender's buffer is untouched
        assertNotEquals(ByteBuffer.wrap(original), out.get(0).payload());
    }

    @Test
    void timeMustNotGoBackwards() {
        LinkDirection d = new LinkDirection(Direction.UP, DirectionModel.delayOnly(1000), new RandomStreams(1), LinkObserver.NONE);
        d.offer(new Packet(1, 1, 100, null), 5000);
        assertThrows(IllegalArgumentException.class, () -> d.offer(new Packet(2, 1, 100, null), 4000));
    }

    @Test
    void nextEventTimeAnnouncesTheNextDelivery() {
        LinkDirection d = new LinkDirection(Direction.UP, DirectionModel.delayOnly(20_000_000L), new RandomStreams(1), LinkObserver.NONE);
        assertEquals(Long.MAX_VALUE, d.nextEventTime());
        d.offer(new Packet(1, 1, 100, null), 1000);
        assertEquals(1000L, d.nextEventTime()); // leaves the (unlimited) rate limiter at once
        d.advanceTo(1000, (p, t) -> { });
        assertEquals(20_001_000L, d.nextEventTime());
    }
}
