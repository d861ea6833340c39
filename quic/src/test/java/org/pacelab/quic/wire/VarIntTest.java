package org.pacelab.quic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;

class VarIntTest {

    private static long decode(String hex) throws QuicException {
        ByteBuffer b = ByteBuffer.wrap(Bytes.fromHex(hex));
        long v = VarInt.read(b);
        assertEquals(0, b.remaining(), "whole encoding consumed");
        return v;
    }

    @Test
    void rfc9000AppendixA1Examples() throws QuicException {
        assertEquals(151288809941952652L, decode("c2197c5eff14e88c"));
        assertEquals(494878333L, decode("9d7f3e7d"));
        assertEquals(15293L, decode("7bbd"));
        assertEquals(37L, decode("25"));
        assertEquals(37L, decode("4025"));
    }

    @Test
    void writesShortestEncodingOfRfcExamples() {
        assertArrayEquals(Bytes.fromHex("c2197c5eff14e88c"), encode(151288809941952652L));
        assertArrayEquals(Bytes.fromHex("9d7f3e7d"), encode(494878333L));
        assertArrayEquals(Bytes.fromHex("7bbd"), encode(15293L));
        assertArrayEquals(Bytes.fromHex("25"), encode(37L));
    }

    @Test
    void fixedLengthEncoding() {
        ByteBuffer b = ByteBuffer.allocate(8);
        VarInt.writeWithLength(b, 37, 2);
        assertArrayEquals(Bytes.fromHex("4025"), java.util.Arrays.copyOf(b.array(), b.position()));
        assertThrows(IllegalArgumentException.class, () -> VarInt.writeWithLength(ByteBuffer.allocate(8), 64, 1));
        assertThrows(IllegalArgumentException.class, () -> VarInt.writeWithLength(ByteBuffer.allocate(8), 1, 3));
    }

    /** RFC 9000 §16: the two-bit length prefix, then the value in network byte order, at each length's bounds. */
    @Test
    void everyFixedLengthAtItsBounds() {
        assertArrayEquals(Bytes.fromHex("00"), encode(0, 1));
        assertArrayEquals(Bytes.fromHex("3f"), encode(0x3f, 1));
        assertArrayEquals(Bytes.fromHex("4000"), encode(0, 2));
        assertArrayEquals(Bytes.fromHex("7fff"), encode(0x3fff, 2));
        assertArrayEquals(Bytes.fromHex("80000025"), encode(37, 4));
        assertArrayEquals(Bytes.fromHex("bfffffff"), encode(0x3fff_ffffL, 4));
        assertArrayEquals(Bytes.fromHex("c000000000000025"), encode(37, 8));
        assertArrayEquals(Bytes.fromHex("ffffffffffffffff"), encode(VarInt.MAX, 8));
        ByteBuffer b = ByteBuffer.allocate(8);
        assertThrows(IllegalArgumentException.class, () -> VarInt.writeWithLength(b, 0x4000, 2));
        assertThrows(IllegalArgumentException.class, () -> VarInt.writeWithLength(b, 0x4000_0000L, 4));
        assertEquals(0, b.position(), "nothing written for a value that does not fit");
    }

    private static byte[] encode(long v, int len) {
        ByteBuffer b = ByteBuffer.allocate(len);
        VarInt.writeWithLength(b, v, len);
        assertEquals(len, b.position());
        return b.array();
    }

    @Test
    void sizeBoundaries() {
        assertEquals(1, VarInt.size(63));
        assertEquals(2, VarInt.size(64));
        assertEquals(2, VarInt.size(16383));
        assertEquals(4, VarInt.size(16384));
        assertEquals(4, VarInt.size(1073741823));
        assertEquals(8, VarInt.size(1073741824));
        assertEquals(8, VarInt.size(VarInt.MAX));
    }

    @Test
    void rejectsValuesOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> VarInt.write(ByteBuffer.allocate(8), VarInt.MAX + 1));
        assertThrows(IllegalArgumentException.class, () -> VarInt.write(ByteBuffer.allocate(8), -1));
    }

    @Test
    void truncationIsFrameEncodingError() {
        QuicException e = assertThrows(QuicException.class, () -> VarInt.read(ByteBuffer.wrap(Bytes.fromHex("c2197c"))));
        assertEquals(TransportError.FRAME_ENCODING_ERROR.code, e.errorCode());
        assertThrows(QuicException.class, () -> VarInt.read(ByteBuffer.allocate(0)));
        assertEquals(-1, VarInt.readOrMinusOne(ByteBuffer.wrap(Bytes.fromHex("9d7f"))));
    }

    @Property
    void roundTrips(@ForAll @LongRange(min = 0, max = (1L << 62) - 1) long v) throws QuicException {
        byte[] enc = encode(v);
        assertEquals(VarInt.size(v), enc.length);
        assertEquals(v, VarInt.read(ByteBuffer.wrap(enc)));
        for (int len : new int[] {1, 2, 4, 8}) {
            if (len >= VarInt.size(v)) {
                ByteBuffer b = ByteBuffer.allocate(len);
                VarInt.writeWithLength(b, v, len);
                assertEquals(len, b.position());
                assertEquals(v, VarInt.read(b.flip()));
            }
        }
    }

    private static byte[] encode(long v) {
        ByteBuffer b = ByteBuffer.allocate(8);
        VarInt.write(b, v);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }
}
