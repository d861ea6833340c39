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
}
