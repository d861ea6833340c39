package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.host.Host;

/**
 * {@code pacelab interop --jobs N}: N cells at once through a fake cell runner (no processes). The first two cells
 * wait for each other, which only ends if they run at the same time (bounded, so a sequential run fails instead of
 * hanging); every cell is recorded once, in plan order, with the number of jobs in its provenance; a cell's error
 * interrupts the one running beside it and starts no more.
 */
class InteropMatrixJobsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final InteropMatrixTest.Fake a = new InteropMatrixTest.Fake("a", Set.of("hq-interop", "h3"), Set.of());
    private final InteropMatrixTest.Fake b = new InteropMatrixTest.Fake("b", Set.of("hq-interop", "h3"), Set.of("retry"));
    private final InteropEndpoints registry = new InteropEndpoints(List.of(a, b));
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    private InteropMatrix matrix(InteropMatrix.CellRunner runner) {
        return new InteropMatrix(dir, null, new Host(), "tshark", new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), registry, runner, new Ticking(), "abc1234");
    }

    private static List<InteropCase> cases(String... names) {
        return java.util.Arrays.stream(names).map(n -> InteropCases.get(n).orElseThrow()).toList();
    }

    /** Counts the cells inside the runner at once; the first two wait (bounded) until both are inside. */
    private InteropMatrix.CellRunner meeting(CountDownLatch firstTwo) {
        return (c, s, cl, alpn, d, seed) -> {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try {
                ran.add(c.name() + " " + s.name() + " " + cl.name());
                firstTwo.countDown();
                firstTwo.await(60, TimeUnit.SECONDS);
                Files.writeString(d.resolve("client.out"), "done\n");
                return CheckResult.succeeded("fine");
            } finally {
                inside.decrementAndGet();
            }
        };
    }

    @Test
    void twoJobsRunTwoCellsAtOnceAndRecordEachOnce() throws Exception {
        InteropMatrix.Plan plan = new InteropMatrix.Plan(List.of(a), List.of(a, b), cases("handshake", "transfer", "retry"), 1);
        CountDownLatch firstTwo = new CountDownLatch(2);
        List<CellResult> cells = matrix(meeting(firstTwo)).run(plan, 2);

        assertEquals(0, firstTwo.getCount(), "the first two cells were inside the runner together");
        assertEquals(2, most.get());
        assertEquals(5, ran.size(), "retry a → b is decided, not run: " + ran);
        assertEquals(List.of("handshake a a", "handshake a b", "transfer a a", "transfer a b", "retry a a", "retry a b"),
                cells.stream().map(CellResult::key).toList(), "plan order, whatever the order they ended in");
        for (CellResult r : cells) {
            assertEquals(2, r.provenance().jobs());
            CellResult stored = MatrixStore.parse(dir.resolve("runs/" + r.server() + "_" + r.client() + "/" + r.testCase()
                    + "/result.json"));
            assertEquals(r.key(), stored.key());
            assertEquals(r.result(), stored.result());
            assertEquals(r.provenance(), stored.provenance());
        }
        JsonNode matrix = JSON.readTree(Files.readString(dir.resolve("matrix.json")));
        assertEquals(6, matrix.get("results").size());
        assertEquals("2", JSON.readTree(Files.readString(dir.resolve("environment.json"))).get("jobs").asText());
        String md = Files.readString(dir.resolve("matrix.md"));
        assertTrue(md.startsWith("6 cells (5 succeeded, 0 failed, 1 unsupported) of 1 server × 2 clients × 3 cases (6 cells)."), md);
        assertTrue(md.contains("; of the cells that ran, 5 ran with `--jobs 2` (beside other cells, on the same CPUs)."), md);

        ran.clear();
        matrix(meeting(new CountDownLatch(0))).run(plan, 2);
        assertEquals(List.of(), ran, "a finished matrix runs nothing again, with --jobs as without");
    }

    @Test
    void oneJobRunsOneCellAtATimeAndTheParagraphSaysNothingOfJobs() throws Exception {
        InteropMatrix.Plan plan = new InteropMatrix.Plan(List.of(a), List.of(a, b), cases("handshake", "transfer"), 1);
        List<CellResult> cells = matrix(meeting(new CountDownLatch(0))).run(plan, 1);
        assertEquals(4, cells.size());
        assertEquals(1, most.get());
        assertTrue(cells.stream().allMatch(r -> r.provenance().jobs() == 1));
        assertTrue(!Files.readString(dir.resolve("matrix.md")).contains("--jobs"));
        assertThrows(IllegalArgumentException.class, () -> matrix(meeting(new CountDownLatch(0))).run(plan, 0));
    }

    @Test
    void aCellsErrorInterruptsTheCellBesideItAndStartsNoMore() {
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch besideInside = new CountDownLatch(1);
        InteropMatrix.CellRunner runner = (c, s, cl, alpn, d, seed) -> {
            ran.add(c.name() + " " + s.name() + " " + cl.name());
            if (cl.name().equals("b")) {
                besideInside.await(60, TimeUnit.SECONDS); // fail once the other cell runs
                throw new IllegalStateException("broken runner");
            }
            besideInside.countDown();
            try {
                never.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return CheckResult.succeeded("fine");
        };
        InteropMatrix.Plan plan = new InteropMatrix.Plan(List.of(a), List.of(a, b), cases("handshake", "transfer"), 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> matrix(runner).run(plan, 2));
        assertEquals("broken runner", e.getMessage());
        assertTrue(interrupted.get(), "the cell running beside it was interrupted");
        assertEquals(List.of("handshake a a", "handshake a b"), ran.stream().sorted().toList(), "no further cell started");
        assertTrue(!Files.exists(dir.resolve("runs/a_a/handshake/result.json")), "an interrupted cell has no result");
    }

    /**
     * An interrupted cell whose interruption surfaces as an I/O error (a file channel closed by the interrupt, as when the
     * run writes its logs after the stop) gets no result either: a "failed" one would be kept by the next invocation.
     */
    @Test
    void aCellStoppedInTheMiddleOfAWriteGetsNoResult() {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch besideInside = new CountDownLatch(1);
        InteropMatrix.CellRunner runner = (c, s, cl, alpn, d, seed) -> {
            if (cl.name().equals("b")) {
                besideInside.await(60, TimeUnit.SECONDS);
                throw new IllegalStateException("broken runner");
            }
            besideInside.countDown();
            try {
                never.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new java.nio.channels.ClosedByInterruptException();
            }
            return CheckResult.succeeded("fine");
        };
        InteropMatrix.Plan plan = new InteropMatrix.Plan(List.of(a), List.of(a, b), cases("handshake"), 1);
        assertThrows(IllegalStateException.class, () -> matrix(runner).run(plan, 2));
        assertTrue(!Files.exists(dir.resolve("runs/a_a/handshake/result.json")), "the stopped cell has no result");
    }

    /** A clock one minute further at every reading, from 2026-12-03 03:00 UTC; safe to read from several threads. */
    private static final class Ticking extends Clock {
        private Instant now = Instant.parse("2026-12-03T03:00:00Z");

        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
        @Override public synchronized Instant instant() {
            now = now.plusSeconds(60);
            return now;
        }
    }
}
