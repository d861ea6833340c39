package org.pacelab.quic.content;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SyntheticContentTest {

    @Test
    void servesTheLengthAskedFor() {
        Content c = SyntheticContent.only().open("/bytes/10737418240");
        Body body = assertInstanceOf(Content.Found.class, c).body();
        assertEquals(10L * 1024 * 1024 * 1024, body.length());
        assertEquals(SyntheticContent.MAX_LENGTH,
                ((Content.Found) SyntheticContent.only().open("/bytes/4611686018427387903")).body().length());
        assertEquals(0, ((Content.Found) SyntheticContent.only().open("/bytes/0")).body().length());
        assertEquals(5, ((Content.Found) SyntheticContent.only().open("/bytes/5?x=1")).body().length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/bytes/", "/bytes/-1", "/bytes/+5", "/bytes/1e3", "/bytes/12a", "/bytes/ 5",
            "/bytes/4611686018427387904", "/bytes/99999999999999999999", "/bytes/%31", "/bytes/5/6"})
    void refusesLengthsThatAreNotDecimalNumbersInRange(String target) {
        Content.Refused r = assertInstanceOf(Content.Refused.class, SyntheticContent.only().open(target));
        assertEquals(400, r.status());
    }

    @Test
    void otherTargetsGoToTheFallback() {
        Content.Refused r = assertInstanceOf(Content.Refused.class, SyntheticContent.only().open("/other"));
        assertEquals(404, r.status());
    }

    @Property(tries = 300)
    void chunkedReadsEqualThePatternAtEveryOffset(@ForAll @IntRange(min = 0, max = 5000) int length,
            @ForAll @IntRange(min = 1, max = 97) int chunk) throws IOException {
        PatternBody body = new PatternBody(length);
        ByteBuffer all = ByteBuffer.allocate(length);
        ByteBuffer piece = ByteBuffer.allocate(chunk);
        while (true) {
            piece.clear();
            int n = body.read(piece);
            if (n == 0) {
                break;
            }
            all.put(piece.flip());
        }
        assertEquals(length, all.position());
        assertArrayEquals(TestContent.pattern(length), all.array());
        assertEquals(-1, BytePattern.firstMismatch(0, all.flip()));
    }

    @Property(tries = 200)
    void aMisplacedWordIsDetected(@ForAll @LongRange(min = 0, max = 1L << 40) long offset,
            @ForAll @IntRange(min = 1, max = 1000) int shift) {
        ByteBuffer b = ByteBuffer.allocate(64);
        BytePattern.fill(offset + 8L * shift, b, 64);
        assertNotEquals(-1, BytePattern.firstMismatch(offset, b.flip()));
    }

    @Test
    void wordsDoNotRepeat() {
        Set<Long> words = new HashSet<>();
        ByteBuffer b = ByteBuffer.allocate(8 * 10_000);
        BytePattern.fill(0, b, b.capacity());
        b.flip();
        while (b.hasRemaining()) {
            words.add(b.getLong());
        }
        assertEquals(10_000, words.size());
    }

    /** fill writes the pattern whatever the destination: heap or direct, either byte order, any offset and length. */
    @Property(tries = 200)
    void fillWritesThePatternIntoEveryKindOfBuffer(@ForAll @LongRange(min = 0, max = 1L << 40) long offset,
                                                   @ForAll @IntRange(min = 0, max = 300) int n,
                                                   @ForAll @IntRange(min = 0, max = 9) int position) {
        for (ByteBuffer dst : new ByteBuffer[] {ByteBuffer.allocate(position + n),
                ByteBuffer.allocate(position + n).order(java.nio.ByteOrder.LITTLE_ENDIAN),
                ByteBuffer.allocateDirect(position + n),
                ByteBuffer.allocateDirect(position + n).order(java.nio.ByteOrder.LITTLE_ENDIAN)}) {
            java.nio.ByteOrder order = dst.order();
            dst.position(position);
            BytePattern.fill(offset, dst, n);
            assertEquals(position + n, dst.position(), "the position advances by n");
            assertEquals(order, dst.order(), "the byte order is left as it was");
            for (int i = 0; i < n; i++) {
                assertEquals(BytePattern.at(offset + i), dst.get(position + i), "byte " + i + " of " + dst);
            }
        }
    }
}
