package org.pacelab.net.dc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.pacelab.net.spec.SpecException;

class BatchSplitterTest {
    private static String sequence(Splitter s, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(switch (s.next()) {
                case A -> 'a';
                case B -> 'b';
                case BOTH -> '2';
            });
        }
        return b.toString();
    }

    @Test
    void evenSplitAlternatesWholeBatches() {
        assertEquals("aabbaabbaabb", sequence(new BatchSplitter(2, SplitRatio.EVEN), 12));
        assertEquals("ababab", sequence(new BatchSplitter(1, SplitRatio.EVEN), 6));
    }

    @Test
    void twoToOneSendsTwoBatchesOnAPerBatchOnB() {
        // smooth weighted round robin over batches: a b a, a b a, ...
        assertEquals("aaabbbaaa" + "aaabbbaaa", sequence(new BatchSplitter(3, new SplitRatio(2, 1)), 18));
    }

    @Test
    void nineToOneSpreadsTheBBatchInsideTheCycle() {
        String cycle = "aaaaabaaaa";
        assertEquals(cycle + cycle + cycle, sequence(new BatchSplitter(1, new SplitRatio(9, 1)), 30));
        String batched = sequence(new BatchSplitter(100, new SplitRatio(9, 1)), 1000);
        assertEquals("a".repeat(500) + "b".repeat(100) + "a".repeat(400), batched);
    }

    @Test
    void oneSidedRatiosUseOnePath() {
        assertEquals("aaaaaa", sequence(new BatchSplitter(2, new SplitRatio(1, 0)), 6));
        assertEquals("bbbbbb", sequence(new BatchSplitter(2, new SplitRatio(0, 1)), 6));
    }

    @Test
    void duplicationAndSinglePathPolicies() {
        assertEquals("222", sequence(new SplitPolicy.Duplicate().newSplitter(), 3));
        assertEquals("bbb", sequence(new SplitPolicy.Single(DcPath.B).newSplitter(), 3));
        assertEquals("aabb", sequence(new SplitPolicy.Batches(2, SplitRatio.EVEN).newSplitter(), 4));
    }

    @Test
    void batchSizeZeroIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BatchSplitter(0, SplitRatio.EVEN));
    }

    @Property(tries = 200)
    void everyCycleCarriesTheRatioExactly(@ForAll @IntRange(min = 1, max = 50) int batch,
                                          @ForAll @IntRange(min = 0, max = 12) int a,
                                          @ForAll @IntRange(min = 0, max = 12) int b) {
        if (a + b == 0) return;
        BatchSplitter s = new BatchSplitter(batch, new SplitRatio(a, b));
        int cycle = (a + b) * batch;
        for (int k = 0; k < 3; k++) {
            int onA = 0;
            String seq = sequence(s, cycle);
            for (char c : seq.toCharArray()) if (c == 'a') onA++;
            assertEquals(a * batch, onA);
            // batches stay whole: every run of one path is a multiple of the batch size
            for (String run : seq.split("(?<=a)(?=b)|(?<=b)(?=a)")) assertEquals(0, run.length() % batch);
        }
    }

    @Test
    void ratiosParse() throws SpecException {
        assertEquals(new SplitRatio(9, 1), SplitRatio.parse("ratio", "9:1"));
        assertEquals(new SplitRatio(7, 3), SplitRatio.parse("ratio", "0.7:0.3"));
        assertEquals(new SplitRatio(1, 1), SplitRatio.parse("ratio", "50:50"));
        assertEquals(new SplitRatio(9, 1), SplitRatio.parse("ratio", "90%"));
        assertEquals(new SplitRatio(1, 0), SplitRatio.parse("ratio", "100%"));
        assertEquals(new SplitRatio(0, 1), SplitRatio.parse("ratio", "0:5"));
        assertEquals(new SplitRatio(7, 3), SplitRatio.parse("ratio", "7e2:3E2"));
        assertEquals(new SplitRatio(1, 0), SplitRatio.parse("ratio", "1.50:0.00"));
        assertEquals(new SplitRatio(1, 3), SplitRatio.parse("ratio", "25.0%"));
        assertEquals(0.9, SplitRatio.parse("ratio", "9:1").shareA(), 1e-12);
    }

    @Test
    void badRatiosSayWhatIsWrongInOneSentence() {
        SpecException e = assertThrows(SpecException.class, () -> SplitRatio.parse("--dc ratio", "9-1"));
        assertEquals("--dc ratio: '9-1' is not a split ratio; write A:B with non-negative numbers, e.g. 9:1, 1:1 or 0.7:0.3, "
                + "or the share of path a as a percentage, e.g. 90%", e.getMessage());
        e = assertThrows(SpecException.class, () -> SplitRatio.parse("--dc ratio", "0:0"));
        assertTrue(e.getMessage().startsWith("--dc ratio: '0:0' sums to zero"), e.getMessage());
        e = assertThrows(SpecException.class, () -> SplitRatio.parse("--dc ratio", "-1:2"));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
        e = assertThrows(SpecException.class, () -> SplitRatio.parse("--dc ratio", "150%"));
        assertTrue(e.getMessage().contains("more than 100%"), e.getMessage());
        assertThrows(SpecException.class, () -> SplitRatio.parse("--dc ratio", "1:2:3"));
        assertThrows(SpecException.class, () -> SplitRatio.parse("--dc ratio", ""));
    }
}
