package org.pacelab.quic.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ReceiveBufferTest {

    /** Any order, overlaps and duplicates, with chunks from 1 byte (every byte crosses a boundary) to the default. */
    @Property
    void reassemblesShuffledOverlappingDuplicatedSegments(@ForAll @IntRange(min = 0, max = 5000) int length,
                                                           @ForAll @IntRange(min = 0, max = 14) int chunkBits,
                                                           @ForAll long seed) {
        Random rnd = new Random(seed);
        byte[] data = new byte[length];
        rnd.nextBytes(data);
        List<int[]> segments = new ArrayList<>();
        int pos = 0;
        while (pos < length) {
            int len = 1 + rnd.nextInt(300);
            int start = Math.max(0, pos - rnd.nextInt(50)); // overlap backwards
            int end = Math.min(length, pos + len);
            segments.add(new int[] {start, end});
            if (rnd.nextInt(4) == 0) {
                segments.add(new int[] {start, end}); // duplicate
            }
            pos = end;
        }
        Collections.shuffle(segments, rnd);
        ReceiveBuffer buf = new ReceiveBuffer(1 << chunkBits);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer dst = ByteBuffer.allocate(97);
        for (int[] s : segments) {
            buf.insert(s[0], java.util.Arrays.copyOfRange(data, s[0], s[1]));
            dst.clear();
            int n;
            while ((n = buf.read(dst)) > 0) {
                out.write(dst.array(), 0, n);
                dst.clear();
            }
        }
        assertArrayEquals(data, out.toByteArray());
        assertEquals(length, buf.readOffset());
        assertEquals(0, buf.readable());
        assertEquals(length % (1 << chunkBits) == 0 ? 0 : 1, buf.chunksHeld(),
                "every chunk read to its end is released; only the one holding the read offset may stay");
    }

    /**
     * readable() is kept as segments arrive instead of walking them: after every insert and partial read it equals
     * the gap-free run from the read offset over the bytes received so far (a model: one flag per byte).
     */
    @Property
    void readableIsTheGapFreeRunFromTheReadOffset(@ForAll @IntRange(min = 1, max = 3000) int length, @ForAll long seed) {
        Random rnd = new Random(seed);
        boolean[] present = new boolean[length];
        ReceiveBuffer buf = new ReceiveBuffer();
        ByteBuffer dst = ByteBuffer.allocate(1 + rnd.nextInt(200));
        for (int step = 0; step < 200; step++) {
            int start = rnd.nextInt(length);
            int end = Math.min(length, start + 1 + rnd.nextInt(400));
            buf.insert(start, new byte[end - start]);
            for (int i = start; i < end; i++) {
                present[i] = true;
            }
            if (rnd.nextInt(3) == 0) {
                dst.clear();
                buf.read(dst);
            }
            long run = buf.readOffset();
            while (run < length && present[(int) run]) {
                run++;
            }
            assertEquals(run - buf.readOffset(), buf.readable(), "step " + step);
        }
    }

    @Property
    void inOrderSegmentsAreReadableAsTheyArrive(@ForAll @IntRange(min = 1, max = 400) int segments) {
        ReceiveBuffer buf = new ReceiveBuffer();
        for (int i = 0; i < segments; i++) {
            buf.insert(i * 1200L, new byte[1200]);
            assertEquals((i + 1) * 1200L, buf.readable());
        }
        buf.discard();
        assertEquals(0, buf.readable());
    }

    @Test
    void inOrderDataFromAViewOfAPacketCrossesChunkBoundaries() {
        byte[] packet = new byte[100];
        for (int i = 0; i < packet.length; i++) {
            packet[i] = (byte) i;
        }
        ByteBuffer view = ByteBuffer.wrap(packet).position(7).limit(90);
        ReceiveBuffer buf = new ReceiveBuffer(16);
        assertTrue(buf.insert(0, view, 10, 40), "40 bytes from index 10 of the packet, over three 16-byte chunks");
        assertTrue(buf.insert(40, view, 50, 30));
        assertEquals(7, view.position(), "the packet's position is not moved");
        assertEquals(90, view.limit());
        assertEquals(70, buf.readable());
        assertEquals(5, buf.chunksHeld());
        assertArrayEquals(Arrays.copyOfRange(packet, 10, 80), readAll(buf, 13));
        assertEquals(70, buf.readOffset());
        assertEquals(1, buf.chunksHeld(), "the chunk holding the read offset stays; the four before it were released");
    }

    @Test
    void outOfOrderDataWaitsForTheGapAndIsReadableWhenItCloses() {
        ReceiveBuffer buf = new ReceiveBuffer(8);
        byte[] data = bytes(60);
        assertFalse(buf.insert(30, data(data, 30, 60)), "after a gap: nothing readable yet");
        assertFalse(buf.insert(12, data(data, 12, 20)), "a second island before the first");
        assertEquals(0, buf.readable());
        assertEquals(60, buf.highestOffset());
        assertTrue(buf.insert(0, data(data, 0, 12)), "fills up to the first island, which joins");
        assertEquals(20, buf.readable());
        assertArrayEquals(Arrays.copyOf(data, 20), readAll(buf, 64));
        assertTrue(buf.insert(20, data(data, 20, 30)), "closes the last gap");
        assertEquals(40, buf.readable());
        assertArrayEquals(Arrays.copyOfRange(data, 20, 60), readAll(buf, 64));
    }

    @Test
    void overlappingAndDuplicateRangesAddOnlyWhatIsNew() {
        ReceiveBuffer buf = new ReceiveBuffer(16);
        byte[] data = bytes(100);
        buf.insert(0, data(data, 0, 40));
        assertFalse(buf.insert(0, data(data, 0, 40)), "an exact duplicate");
        assertFalse(buf.insert(10, data(data, 10, 30)), "inside what arrived");
        assertTrue(buf.insert(30, data(data, 30, 50)), "overlaps the end: only 40..50 is new");
        assertEquals(50, buf.readable());
        assertFalse(buf.insert(60, data(data, 60, 80)));
        assertFalse(buf.insert(70, data(data, 70, 90)), "overlaps an island beyond the gap");
        assertFalse(buf.insert(60, data(data, 60, 80)), "duplicates the island");
        assertTrue(buf.insert(45, data(data, 45, 65)), "overlaps both sides of the gap");
        assertEquals(90, buf.readable());
        assertArrayEquals(Arrays.copyOf(data, 90), readAll(buf, 7));
        assertFalse(buf.insert(5, data(data, 5, 90)), "all read already");
        assertEquals(0, buf.readable());
    }

    /** Bytes received in order are kept as they first arrived (RFC 9000 §2.2: data at an offset must not change). */
    @Test
    void bytesReceivedInOrderAreNotRewrittenByADuplicate() {
        ReceiveBuffer buf = new ReceiveBuffer(16);
        buf.insert(0, new byte[] {1, 2, 3, 4});
        buf.insert(2, new byte[] {9, 9, 5, 6});
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6}, readAll(buf, 16));
    }

    @Test
    void chunksReadToTheirEndAreReleasedAtOnce() {
        ReceiveBuffer buf = new ReceiveBuffer(16);
        byte[] data = bytes(16 * 40);
        for (int i = 0; i < 40; i++) {
            buf.insert(i * 16L, data(data, i * 16, i * 16 + 16));
            assertArrayEquals(Arrays.copyOfRange(data, i * 16, i * 16 + 16), readAll(buf, 16));
            assertEquals(0, buf.chunksHeld());
        }
    }

    @Test
    void dataFarAheadGrowsTheChunkIndexAndKeepsTheOrder() {
        ReceiveBuffer buf = new ReceiveBuffer(16);
        byte[] data = bytes(3000);
        assertFalse(buf.insert(980, data(data, 980, 990)));
        assertEquals(1, buf.chunksHeld(), "only the chunk that holds data is allocated");
        assertTrue(buf.insert(0, data(data, 0, 500)));
        assertArrayEquals(Arrays.copyOf(data, 300), readSome(buf, 300));
        assertFalse(buf.insert(2990, data(data, 2990, 3000)), "169 chunks ahead of the read offset's, past the ring's end");
        assertTrue(buf.insert(500, data(data, 500, 980)));
        assertEquals(690, buf.readable());
        assertTrue(buf.insert(990, data(data, 990, 2990)));
        assertEquals(2700, buf.readable());
        assertArrayEquals(Arrays.copyOfRange(data, 300, 3000), readAll(buf, 4096));
    }

    @Test
    void discardDropsWhatWasNotRead() {
        ReceiveBuffer buf = new ReceiveBuffer(16);
        buf.insert(0, bytes(40));
        buf.insert(50, bytes(10));
        readSome(buf, 10);
        buf.discard();
        assertEquals(0, buf.readable());
        assertEquals(10, buf.readOffset());
        assertEquals(0, buf.chunksHeld());
        assertEquals(0, buf.read(ByteBuffer.allocate(8)));
    }

    @Test
    void aChunkSizeThatIsNotAPowerOfTwoIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReceiveBuffer(1000));
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static byte[] data(byte[] all, int from, int to) {
        return Arrays.copyOfRange(all, from, to);
    }

    /** One read of up to {@code n} bytes. */
    private static byte[] readSome(ReceiveBuffer buf, int n) {
        ByteBuffer dst = ByteBuffer.allocate(n);
        return Arrays.copyOf(dst.array(), buf.read(dst));
    }

    /** Reads everything readable in reads of at most {@code step} bytes. */
    private static byte[] readAll(ReceiveBuffer buf, int step) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer dst = ByteBuffer.allocate(step);
        int n;
        while ((n = buf.read(dst.clear())) > 0) {
            out.write(dst.array(), 0, n);
        }
        return out.toByteArray();
    }
}
