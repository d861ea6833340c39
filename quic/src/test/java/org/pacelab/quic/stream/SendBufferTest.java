package org.pacelab.quic.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class SendBufferTest {

    /** Sends a stream over a lossy, reordering channel: the receiver ends up with every byte exactly. */
    @Property(tries = 200)
    void everyByteArrivesDespiteLossAndReordering(@ForAll @IntRange(min = 1, max = 200_000) int length,
                                                  @ForAll long seed) {
        Random rnd = new Random(seed);
        byte[] data = new byte[length];
        rnd.nextBytes(data);
        SendBuffer sb = new SendBuffer(1 << 20);
        ByteBuffer src = ByteBuffer.wrap(data);
        ReceiveBuffer rb = new ReceiveBuffer();
        List<SendBuffer.Piece> inFlight = new ArrayList<>();
        boolean finSeen = false;
        for (int round = 0; round < 100_000 && !sb.allAcked(); round++) {
            if (src.hasRemaining()) {
                sb.write(src);
                if (!src.hasRemaining()) {
                    sb.finish();
                }
            }
            SendBuffer.Piece p = sb.next(1 + rnd.nextInt(1400), Long.MAX_VALUE);
            if (p != null) {
                inFlight.add(p);
            }
            if (!inFlight.isEmpty() && (p == null || rnd.nextInt(3) == 0)) {
                SendBuffer.Piece q = inFlight.remove(rnd.nextInt(inFlight.size()));
                if (rnd.nextInt(5) == 0) {
                    sb.onLost(q.offset(), q.length(), q.fin());
                } else {
                    ByteBuffer copy = ByteBuffer.allocate(q.length());
                    sb.copy(q.offset(), q.length(), copy);
                    rb.insert(q.offset(), copy.array());
                    finSeen |= q.fin();
                    sb.onAcked(q.offset(), q.length(), q.fin());
                }
            }
        }
        assertTrue(sb.allAcked(), "not everything was acknowledged");
        assertTrue(finSeen);
        ByteBuffer out = ByteBuffer.allocate(length);
        rb.read(out);
        assertArrayEquals(data, out.array());
    }

    @Test
    void flowControlLimitsNewDataButNotRetransmissions() {
        SendBuffer sb = new SendBuffer(1 << 20);
        sb.write(ByteBuffer.wrap(new byte[5000]));
        SendBuffer.Piece a = sb.next(1000, 1500);
        SendBuffer.Piece b = sb.next(1000, 1500);
        assertEquals(1000, a.length());
        assertEquals(500, b.length());
        assertNull(sb.next(1000, 1500));
        sb.onLost(a.offset(), a.length(), false);
        SendBuffer.Piece r = sb.next(1000, 1500);
        assertTrue(r.retransmission());
        assertEquals(0, r.offset());
    }

    @Test
    void capacityBoundsUnacknowledgedBytes() {
        SendBuffer sb = new SendBuffer(10_000);
        assertEquals(10_000, sb.write(ByteBuffer.wrap(new byte[15_000])));
        assertEquals(0, sb.writable());
        SendBuffer.Piece p = sb.next(4000, Long.MAX_VALUE);
        sb.onAcked(p.offset(), p.length(), false);
        assertEquals(4000, sb.writable());
    }

    /**
     * A bulk stream cycles through its capacity's worth of chunks: once the buffer was full, writing and acknowledging
     * ten times its capacity reuses the released chunks instead of allocating new ones, and the bytes stay right.
     */
    @Test
    void aBulkStreamReusesItsChunks() {
        int capacity = 1 << 20;
        SendBuffer sb = new SendBuffer(capacity);
        Random rnd = new Random(7);
        byte[] data = new byte[1400];
        byte[] out = new byte[1400];
        long written = 0;
        for (int round = 0; round < 10 * capacity / 1400; round++) {
            rnd.nextBytes(data);
            // fill up to the capacity, then send and acknowledge one packet's worth
            while (sb.writable() >= data.length) {
                sb.write(ByteBuffer.wrap(data));
                written += data.length;
            }
            SendBuffer.Piece p = sb.next(1400, Long.MAX_VALUE);
            ByteBuffer o = ByteBuffer.wrap(out);
            sb.copy(p.offset(), p.length(), o);
            sb.onAcked(p.offset(), p.length(), false);
        }
        assertTrue(written > 10L * capacity - capacity);
        // the full buffer's chunks, a partial one at each end, and nothing more
        assertTrue(sb.chunksAllocated() <= capacity / (32 * 1024) + 2, "allocated " + sb.chunksAllocated());
        // a reused chunk hands out what was written last, not what it held before
        SendBuffer fresh = new SendBuffer(capacity);
        byte[] last = new byte[100];
        for (int i = 0; i < 3 * capacity / 100; i++) {
            java.util.Arrays.fill(last, (byte) i);
            fresh.write(ByteBuffer.wrap(last));
            SendBuffer.Piece p = fresh.next(100, Long.MAX_VALUE);
            byte[] got = new byte[100];
            fresh.copy(p.offset(), p.length(), ByteBuffer.wrap(got));
            assertArrayEquals(last, got);
            fresh.onAcked(p.offset(), p.length(), false);
        }
    }
}
