package org.pacelab.net.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceRateLimiterTest {
    private static final long MS = 1_000_000L;

    private static MahimahiTrace trace(String text) throws Exception {
        return MahimahiTrace.parse("t", new BufferedReader(new StringReader(text)));
    }

    private static List<LinkTestSupport.Delivered> saturate(MahimahiTrace tr, int packets, int size) {
        LinkDirection d = new LinkDirection(Direction.DOWN, LinkTestSupport.model(new TraceRateLimiter(tr, true, 0),
                QueueLimit.UNLIMITED, false, 0, 0), new RandomStreams(1), LinkObserver.NONE);
        long[] times = new long[packets]; // all queued at time -1 ns... use 0 and an opportunity after it
        int[] sizes = new int[packets];
        java.util.Arrays.fill(sizes, size);
        return LinkTestSupport.run(d, times, sizes);
    }

    @Test
    void onePeriodDeliversOnePacketPerOpportunityAndWraps() throws Exception {
        // opportunities at 1, 1, 2, 5, 5, 5, 10 ms; period 10 ms
        MahimahiTrace tr = trace("1\n1\n2\n5\n5\n5\n10\n");
        List<LinkTestSupport.Delivered> out = saturate(tr, 14, 1500);
        List<Long> times = out.stream().map(LinkTestSupport.Delivered::time).toList();
        assertEquals(List.of(1 * MS, 1 * MS, 2 * MS, 5 * MS, 5 * MS, 5 * MS, 10 * MS,
                11 * MS, 11 * MS, 12 * MS, 15 * MS, 15 * MS, 15 * MS, 20 * MS), times);
        assertEquals(7, out.stream().filter(x -> x.time() <= 10 * MS).count()); // one period = 7 opportunities
    }

    @Test
    void bytesAreAccountedAcrossOpportunities() throws Exception {
        // 1 ms per opportunity: 1000-byte packets need 2/3 of one; 3 packets fit in 2 opportunities
        MahimahiTrace tr = trace("1\n");
        List<Long> times = saturate(tr, 6, 1000).stream().map(LinkTestSupport.Delivered::time).toList();
        assertEquals(List.of(1 * MS, 2 * MS, 2 * MS, 3 * MS, 4 * MS, 4 * MS), times);
    }

    @Test
    void unusedOpportunitiesAreLost() throws Exception {
        MahimahiTrace tr = trace("1\n");
        LinkDirection d = new LinkDirection(Direction.DOWN, LinkTestSupport.model(new TraceRateLimiter(tr, true, 0),
                QueueLimit.UNLIMITED, false, 0, 0), new RandomStreams(1), LinkObserver.NONE);
        // idle for 100 ms, then 3 packets at once: they leave at 101, 102, 103 ms, not all at 100 ms
        List<Long> times = LinkTestSupport.run(d, new long[] {100 * MS, 100 * MS, 100 * MS}, new int[] {1500, 1500, 1500})
                .stream().map(LinkTestSupport.Delivered::time).toList();
        assertEquals(List.of(101 * MS, 102 * MS, 103 * MS), times);
    }

    @Test
    void traceWithoutRepeatEnds() throws Exception {
        MahimahiTrace tr = trace("1\n2\n");
        LinkTestSupport.Recorder rec = new LinkTestSupport.Recorder();
        LinkDirection d = new LinkDirection(Direction.DOWN, LinkTestSupport.model(new TraceRateLimiter(tr, false, 0),
                QueueLimit.UNLIMITED, false, 0, 0), new RandomStreams(1), rec);
        List<LinkTestSupport.Delivered> out = LinkTestSupport.run(d, new long[] {0, 0, 0}, new int[] {1500, 1500, 1500});
        assertEquals(2, out.size());
        assertEquals(List.of(2L), rec.ids(EventType.DROP));
    }

    @Test
    void sharedLteTraceMatchesItsOpportunityCount() throws Exception {
        Path file = Path.of("../../shared/traces/TMobile-LTE-short.down");
        if (!Files.exists(file)) file = Path.of("/work/shared/traces/TMobile-LTE-short.down");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(file), "shared traces not present");
        MahimahiTrace tr = MahimahiTrace.read(file);
        assertEquals(Files.readAllLines(file).size(), tr.opportunities());
        assertTrue(tr.meanBitsPerSecond() > 0);
    }

    @Test
    void badTracesAreRejectedWithTheLine(@TempDir Path dir) throws Exception {
        assertEquals("t:2: 'x1' is not a whole number of milliseconds",
                assertThrows(TraceFormatException.class, () -> trace("1\nx1\n")).getMessage());
        assertEquals("t:3: timestamp 2 is smaller than the previous one (5); timestamps must never decrease",
                assertThrows(TraceFormatException.class, () -> trace("1\n5\n2\n")).getMessage());
        assertEquals("t: the trace is empty; it needs at least one timestamp",
                assertThrows(TraceFormatException.class, () -> trace("")).getMessage());
        assertTrue(assertThrows(TraceFormatException.class, () -> trace("0\n0\n")).getMessage().startsWith("t:2: the last timestamp is 0"));
        assertTrue(assertThrows(TraceFormatException.class, () -> trace("1\n\n2\n")).getMessage().startsWith("t:2: empty line"));
        assertTrue(assertThrows(TraceFormatException.class, () -> MahimahiTrace.read(dir.resolve("nope")))
                .getMessage().endsWith("does not exist"));
    }
}
