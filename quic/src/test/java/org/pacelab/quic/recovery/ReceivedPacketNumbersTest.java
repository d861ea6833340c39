package org.pacelab.quic.recovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.pacelab.quic.util.RangeSet;

class ReceivedPacketNumbersTest {
    /** add {@code value}, or (removeBelow) forget the values below it. */
    record Op(boolean add, int value) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.of(true, true, true, true, true, false),
                Arbitraries.integers().between(0, 120)).as(Op::new);
        return op.list().ofMaxSize(120);
    }

    /** The model: a RangeSet trimmed to the capacity after each add, as AckTracker kept its packet numbers before. */
    @Property
    void behavesLikeATrimmedRangeSet(@ForAll("ops") List<Op> ops, @ForAll @IntRange(min = 1, max = 6) int capacity) {
        ReceivedPacketNumbers numbers = new ReceivedPacketNumbers(capacity);
        RangeSet model = new RangeSet();
        for (Op o : ops) {
            if (o.add()) {
                boolean added = model.add(o.value(), o.value() + 1) > 0;
                model.trimToRanges(capacity);
                assertEquals(added, numbers.add(o.value()), "add " + o.value() + " to " + numbers);
            } else {
                model.removeBelow(o.value());
                numbers.removeBelow(o.value());
            }
            for (int v = 0; v < 125; v++) {
                assertEquals(model.contains(v), numbers.contains(v), "value " + v + " after " + o + ": " + numbers);
                assertEquals(model.contiguousEnd(v), numbers.contiguousEnd(v), "contiguous end of " + v);
            }
            assertEquals(model.rangeCount(), numbers.rangeCount());
            assertEquals(model.isEmpty(), numbers.isEmpty());
            List<Long> bounds = new ArrayList<>();
            for (Iterator<RangeSet.Range> it = model.descendingIterator(); it.hasNext(); ) {
                RangeSet.Range r = it.next();
                bounds.add(r.end() - 1);
                bounds.add(r.start());
            }
            assertArrayEquals(bounds.stream().mapToLong(Long::longValue).toArray(), numbers.descendingBounds());
        }
    }

    @Test
    void packetNumbersInOrderMakeOneRange() {
        ReceivedPacketNumbers numbers = new ReceivedPacketNumbers(4);
        for (long pn = 0; pn < 1000; pn++) {
            assertTrue(numbers.add(pn));
        }
        assertFalse(numbers.add(500), "a duplicate");
        assertEquals(1, numbers.rangeCount());
        assertArrayEquals(new long[] {999, 0}, numbers.descendingBounds());
    }

    @Test
    void theLowestRangeGoesBeyondTheCapacity() {
        ReceivedPacketNumbers numbers = new ReceivedPacketNumbers(2);
        numbers.add(10);
        numbers.add(20);
        numbers.add(30);
        assertArrayEquals(new long[] {30, 30, 20, 20}, numbers.descendingBounds());
        // a new lowest range is dropped at once
        numbers.add(5);
        assertFalse(numbers.contains(5));
        assertArrayEquals(new long[] {30, 30, 20, 20}, numbers.descendingBounds());
    }
}
