package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.host.Host;

/**
 * {@code pacelab interop} resumes like a campaign: with the same directory, cells with a finished result are kept,
 * interrupted and missing ones run, {@code --rerun} repeats chosen ones, and the matrix files cover every cell of the
 * directory with where each came from. The cells run through a fake runner (no processes) that records what ran.
 */
class InteropMatrixResumeTest {
    @TempDir
    Path dir;

    private final InteropMatrixTest.Fake a = new InteropMatrixTest.Fake("a", Set.of("hq-interop", "h3"), Set.of());
    private final InteropMatrixTest.Fake b = new InteropMatrixTest.Fake("b", Set.of("hq-interop", "h3"), Set.of("retry"));
    private final InteropEndpoints registry = new InteropEndpoints(List.of(a, b));
    private final List<String> ran = new ArrayList<>();
    private final Ticking clock = new Ticking();

    /** handshake a → b fails, everything else succeeds. */
    private final InteropMatrix.CellRunner runner = (c, s, cl, alpn, d, seed) -> {
        ran.add(c.name() + " " + s.name() + " " + cl.name());
        Files.writeString(d.resolve("client.out"), "done\n");
        return c.name().equals("handshake") && cl.name().equals("b") ? CheckResult.failed("no handshake")
                : CheckResult.succeeded("fine");
    };

    private InteropMatrix matrix(String commit) {
        return new InteropMatrix(dir, null, new Host(), "tshark", new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), registry, runner, clock, commit);
    }

    private static List<InteropCase> cases(String... names) {
        return java.util.Arrays.stream(names).map(n -> InteropCases.get(n).orElseThrow()).toList();
    }

    @Test
    void keptCellsAreNotRunAgainInterruptedAndMissingOnesAre() throws Exception {
        List<CellResult> first = matrix("abc1234").run(new InteropMatrix.Plan(List.of(a), List.of(a, b),
                cases("handshake", "transfer"), 1));
        assertEquals(List.of("handshake a a", "handshake a b", "transfer a a", "transfer a b"), ran);
        assertEquals(4, first.size());

        // a cell interrupted in the middle: its directory without result.json
        Path interrupted = dir.resolve("runs/a_b/transfer");
        Files.delete(interrupted.resolve("result.json"));
        ran.clear();
        List<CellResult> second = matrix("def5678").run(new InteropMatrix.Plan(List.of(a), List.of(a, b),
                cases("handshake", "transfer", "retry"), 1));
        // retry with client b is unsupported (decided, not run); the interrupted cell and retry a → a run
        assertEquals(List.of("transfer a b", "retry a a"), ran);
        assertEquals(6, second.size());
        CellResult kept = second.getFirst();
        assertEquals("abc1234", kept.provenance().commit());
        assertEquals(first.getFirst().provenance(), kept.provenance());
        assertTrue(Files.isRegularFile(dir.resolve("runs/a_a/handshake/client.out")), "a kept cell's files stay");

        String md = Files.readString(dir.resolve("matrix.md"));
        assertTrue(md.startsWith("6 cells (4 succeeded, 1 failed, 1 unsupported) of 1 server × 2 clients × 3 cases (6 cells)."), md);
        assertTrue(md.contains("The cells come from 2 invocations of `pacelab interop` with the same `--out`"), md);
        assertTrue(md.contains("between 2026-12-02 03:02 and 03:15 UTC"), md);
        assertTrue(md.contains("at commits abc1234 (3 cells), def5678 (3 cells); seed 1"), md);
        JsonNode json = new ObjectMapper().readTree(Files.readString(dir.resolve("matrix.json")));
        assertEquals(6, json.get("results").size());
        assertEquals(2, Files.list(dir.resolve("invocations")).count());
    }

    @Test
    void rerunRepeatsTheChosenCellsAndAnotherSeedRunsEverything() throws Exception {
        InteropMatrix.Plan plan = new InteropMatrix.Plan(List.of(a), List.of(a, b), cases("handshake", "transfer"), 1);
        matrix("abc1234").run(plan);
        ran.clear();
        matrix("abc1234").run(plan);
        assertEquals(List.of(), ran, "a finished matrix runs nothing again");

        matrix("abc1234").run(new InteropMatrix.Plan(plan.servers(), plan.clients(), plan.cases(), 1,
                InteropMatrix.Rerun.of(List.of("failed"))));
        assertEquals(List.of("handshake a b"), ran);
        ran.clear();
        matrix("abc1234").run(new InteropMatrix.Plan(plan.servers(), plan.clients(), plan.cases(), 1,
                InteropMatrix.Rerun.of(List.of("transfer"))));
        assertEquals(List.of("transfer a a", "transfer a b"), ran);
        ran.clear();
        matrix("abc1234").run(new InteropMatrix.Plan(plan.servers(), plan.clients(), plan.cases(), 2));
        assertEquals(4, ran.size(), "another seed is another result: " + ran);
    }

    @Test
    void aSliceAddsToTheMatrixAndTheDocumentGetsOneSectionForAll() throws Exception {
        matrix("abc1234").run(new InteropMatrix.Plan(List.of(a), List.of(a), cases("handshake"), 1));
        matrix("abc1234").run(new InteropMatrix.Plan(List.of(b), List.of(a, b), cases("transfer"), 1));
        String md = Files.readString(dir.resolve("matrix.md"));
        // both slices in one table: servers a and b (registry order), clients a and b, cases handshake and transfer
        assertTrue(md.startsWith("3 cells (3 succeeded, 0 failed, 0 unsupported) of 2 servers × 2 clients × 2 cases (8 cells; "
                + "5 not run yet)."), md);
        assertTrue(md.contains("| **a** | ✓ H |"), md);
        assertTrue(md.contains("| **b** | ✓ DC | ✓ DC |"), md);

        Path doc = Files.writeString(dir.resolve("doc.md"), "# Matrix\n\ntext\n\n" + MatrixDocument.BEGIN + "\nold\n"
                + MatrixDocument.END + "\n\nafter\n");
        MatrixDocument.update(doc, md);
        String text = Files.readString(doc);
        assertEquals(1, text.split(java.util.regex.Pattern.quote(MatrixDocument.BEGIN), -1).length - 1);
        assertTrue(text.contains(md) && !text.contains("\nold\n") && text.endsWith("after\n"), text);
    }

    @Test
    void anUnsupportedCellKeepsItsFileAndProvenanceUntilItsDecisionChanges() throws Exception {
        // client b does not take retry: decided "unsupported", never run
        InteropMatrix.Plan plan = new InteropMatrix.Plan(List.of(a), List.of(a, b), cases("retry"), 1);
        matrix("abc1234").run(plan);
        Path file = dir.resolve("runs/a_b/retry/result.json");
        String written = Files.readString(file);
        var modified = Files.getLastModifiedTime(file);
        ran.clear();

        List<CellResult> again = matrix("def5678").run(plan);
        assertEquals(List.of(), ran);
        assertEquals(written, Files.readString(file), "the same decision leaves the file as it was");
        assertEquals(modified, Files.getLastModifiedTime(file));
        CellResult decided = again.get(1);
        assertEquals(CheckResult.unsupported("client b: no option for retry"), decided.result());
        assertEquals("abc1234", decided.provenance().commit());
        String md = Files.readString(dir.resolve("matrix.md"));
        assertTrue(md.contains(" Run by one invocation of `pacelab interop`") && md.contains(" UTC, at commit abc1234; seed 1"), md);

        // the decision's reason changes (b now speaks no protocol a does): rewritten with the new provenance
        InteropMatrixTest.Fake mute = new InteropMatrixTest.Fake("b", Set.of("x"), Set.of());
        List<CellResult> changed = matrix("0123abc").run(new InteropMatrix.Plan(List.of(a), List.of(a, mute), cases("retry"), 1));
        assertEquals(List.of(), ran);
        assertEquals(CheckResult.unsupported("no common application protocol (server a: h3, hq-interop; client b: x)"),
                changed.get(1).result());
        assertEquals("0123abc", changed.get(1).provenance().commit());
        assertEquals("0123abc", MatrixStore.parse(file).provenance().commit());

        // --rerun naming the case, and another seed, decide it again with new provenance; the run cell a → a runs again
        matrix("4567def").run(new InteropMatrix.Plan(List.of(a), List.of(a, mute), cases("retry"), 1,
                InteropMatrix.Rerun.of(List.of("retry"))));
        assertEquals("4567def", MatrixStore.parse(file).provenance().commit());
        assertEquals(List.of("retry a a"), ran);
        ran.clear();

        // b takes retry now: the decided cell runs
        InteropMatrixTest.Fake willing = new InteropMatrixTest.Fake("b", Set.of("hq-interop", "h3"), Set.of());
        List<CellResult> run = matrix("89abcde").run(new InteropMatrix.Plan(List.of(a), List.of(a, willing), cases("retry"), 1));
        assertEquals(List.of("retry a b"), ran);
        assertEquals(CheckResult.Outcome.SUCCEEDED, run.get(1).result().outcome());
        assertEquals("runs/a_b/retry", run.get(1).directory());
    }

    @Test
    void anUnreadableOrOldResultRunsAgain() throws Exception {
        Path cell = Files.createDirectories(dir.resolve("runs/a_a/handshake"));
        Files.writeString(cell.resolve("result.json"), "{\"case\":\"handshake\",\"server\":\"a\",\"client\":\"a\",\"result\":\"failed\"}");
        Path other = Files.createDirectories(dir.resolve("runs/a_a/transfer"));
        Files.writeString(other.resolve("result.json"), "{ not json");
        matrix("abc1234").run(new InteropMatrix.Plan(List.of(a), List.of(a), cases("handshake", "transfer"), 1));
        assertEquals(List.of("handshake a a", "transfer a a"), ran);
        assertTrue(Files.readString(dir.resolve("matrix.md")).startsWith("2 cells (2 succeeded, 0 failed, 0 unsupported)"));
    }

    /** A clock one minute further at every reading, from 2026-12-02 03:00 UTC. */
    private static final class Ticking extends Clock {
        private Instant now = Instant.parse("2026-12-02T03:00:00Z");

        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
        @Override public Instant instant() {
            now = now.plusSeconds(60);
            return now;
        }
    }
}
