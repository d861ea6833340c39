package org.pacelab.quic.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class RangeSetTest {
    record Op(boolean add, int start, int length) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.of(true, true, false), Arbitraries.integers().between(0, 200),
                Arbitraries.integers().between(0, 30)).as(Op::new);
        return op.list().ofMaxSize(60);
    }

    @Property
    void behavesLikeABitSet(@ForAll("ops") List<Op> ops) {
        RangeSet set = new RangeSet();
        BitSet model = new BitSet();
        for (Op o : ops) {
            if (o.add()) {
                long before = model.cardinality();
                long added = set.add(o.start(), o.start() + o.length());
                model.set(o.start(), o.start() + o.length());
                assertEquals(model.cardinality() - before, added, "count of newly added values");
            } else {
                set.remove(o.start(), o.start() + o.length());
                model.clear(o.start(), o.start() + o.length());
            }
            for (int i = 0; i < 240; i++) {
                assertEquals(model.get(i), set.contains(i), "value " + i + " after " + o);
            }
            // ranges are disjoint, non-adjacent and sorted
            long prevEnd = -2;
            int count = 0;
            for (RangeSet.Range r : set) {
                if (r.start() <= prevEnd) {
                    throw new AssertionError("ranges overlap or touch: " + set);
                }
                prevEnd = r.end();
                count++;
            }
            assertEquals(count, set.rangeCount());
        }
    }
}
