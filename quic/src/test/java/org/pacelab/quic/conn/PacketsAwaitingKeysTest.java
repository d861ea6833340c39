package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/** The packets that wait for their keys (RFC 9001 §4.1.4): copies, oldest first, at most 16. */
class PacketsAwaitingKeysTest {

    @Test
    void keepsCopiesOfThePacketsOldestFirst() {
        byte[] datagram = {1, 2, 3, 4, 5, 6, 7, 8};
        ByteBuffer dg = ByteBuffer.wrap(datagram);
        PacketsAwaitingKeys waiting = new PacketsAwaitingKeys();
        assertTrue(waiting.isEmpty());
        waiting.add(dg, 0, 3);
        waiting.add(dg, 3, 8);
        datagram[0] = 9;   // the runtime reuses its receive buffer
        assertEquals(2, waiting.size());
        assertArrayEquals(new byte[] {1, 2, 3}, waiting.poll());
        byte[] second = waiting.poll();
        assertArrayEquals(new byte[] {4, 5, 6, 7, 8}, second);
        assertNull(waiting.poll());
        waiting.putBack(second);
        assertArrayEquals(second, waiting.poll());
        assertEquals(0, dg.position(), "the datagram's position is left alone");
    }

    @Test
    void holdsAtMostSixteen() {
        ByteBuffer dg = ByteBuffer.wrap(new byte[40]);
        PacketsAwaitingKeys waiting = new PacketsAwaitingKeys();
        for (int i = 0; i < PacketsAwaitingKeys.CAPACITY; i++) {
            assertTrue(waiting.hasRoom());
            waiting.add(dg, i, i + 1);
        }
        assertEquals(16, PacketsAwaitingKeys.CAPACITY);
        assertFalse(waiting.hasRoom());
    }
}
