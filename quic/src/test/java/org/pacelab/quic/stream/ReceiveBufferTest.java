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
}
