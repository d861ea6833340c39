package org.pacelab.quic.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class PacketNumbersTest {

    @Test
    void decodingExampleOfRfc9000AppendixA3() {
        assertEquals(0xa82f9b32L, PacketNumbers.decode(0xa82f30eaL, 0x9b32, 2));
    }

    @Test
    void encodingExamplesOfRfc9000AppendixA2() {
        assertEquals(2, PacketNumbers.encodedLength(0xac5c02L, 0xabe8b3L));
        assertEquals(3, PacketNumbers.encodedLength(0xace8feL, 0xabe8b3L));
    }

    @Test
    void firstPacketsAndBounds() {
        assertEquals(1, PacketNumbers.encodedLength(0, -1));
        assertEquals(1, PacketNumbers.encodedLength(63, -1));
        assertEquals(2, PacketNumbers.encodedLength(200, -1));
        assertEquals(4, PacketNumbers.encodedLength(1L << 40, -1));
        assertEquals(0, PacketNumbers.decode(-1, 0, 1));
        assertEquals(5, PacketNumbers.decode(-1, 5, 4));
        assertEquals(255, PacketNumbers.decode(254, 0xff, 1));
        assertEquals(256, PacketNumbers.decode(255, 0x00, 1));
        assertThrows(IllegalArgumentException.class, () -> PacketNumbers.write(ByteBuffer.allocate(8), 1, 5));
    }

    @Test
    void writeAndRead() {
        ByteBuffer b = ByteBuffer.allocate(8);
        PacketNumbers.write(b, 0x1234_5678_9aL, 3);
        assertEquals(3, b.position());
        assertEquals(0x56789aL, PacketNumbers.read(b, 0, 3));
        PacketNumbers.put(b, 4, 0xabcd, 2);
        assertEquals(0xabcd, PacketNumbers.read(b, 4, 2));
    }

    /** Each length 1..4 writes the low bytes most significant first, relative and absolute, and reads them back. */
    @Property(tries = 500)
    void everyLengthRoundTrips(@ForAll @LongRange(min = 0, max = PacketNumbers.MAX) long pn) {
        for (int len = 1; len <= 4; len++) {
            ByteBuffer b = ByteBuffer.allocate(12);
            b.position(1);
            PacketNumbers.write(b, pn, len);
            assertEquals(1 + len, b.position());
            long low = pn & ((1L << (8 * len)) - 1);
            for (int i = 0; i < len; i++) {
                assertEquals((byte) (low >>> (8 * (len - 1 - i))), b.get(1 + i), "byte " + i + " of " + len);
            }
            assertEquals(0, b.get(0));
            assertEquals(0, b.get(1 + len));
            assertEquals(low, PacketNumbers.read(b, 1, len));
            PacketNumbers.put(b, 6, pn, len);
            assertEquals(low, PacketNumbers.read(b, 6, len));
            assertEquals(1 + len, b.position());
        }
    }

    @Test
    void lengthsOutsideOneToFourAreRefusedInOneSentence() {
        ByteBuffer b = ByteBuffer.allocate(8);
        for (int len : new int[] {0, 5, -1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PacketNumbers.put(b, 0, 1, len));
            assertEquals("packet number length must be 1..4 bytes, not " + len, e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> PacketNumbers.read(b, 0, len));
            assertThrows(IllegalArgumentException.class, () -> PacketNumbers.write(b, 1, len));
        }
        assertEquals(0, b.position());
    }

    /** A receiver that has seen largestAcked (or later, up to pn-1) decodes what the sender encoded. */
    @Property(tries = 2000)
    void encodedLengthSufficesForDecoding(@ForAll @LongRange(min = -1, max = 1L << 40) long largestAcked,
                                          @ForAll @LongRange(min = 1, max = 1L << 30) long distance,
                                          @ForAll @LongRange(min = 0, max = 1L << 30) long receivedBack) {
        long pn = largestAcked + distance;
        int len = PacketNumbers.encodedLength(pn, largestAcked);
        long truncated = pn & ((1L << (8 * len)) - 1);
        // the receiver's largest processed lies between the sender's largest acked and pn - 1
        long receiverLargest = Math.max(largestAcked, pn - 1 - Math.min(receivedBack, distance - 1));
        assertEquals(pn, PacketNumbers.decode(receiverLargest, truncated, len));
    }
}
