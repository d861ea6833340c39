package org.pacelab.quic.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class ReceiveBufferTest {

    @Property
    void reassemblesShuffledOverlappingDuplicatedSegments(@ForAll @IntRange(min = 0, max = 5000) int length,
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
        ReceiveBuffer buf = new ReceiveBuffer();
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
}
