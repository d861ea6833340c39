package org.pacelab.lab.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.scenario.Scenario;
import org.pacelab.lab.scenario.ScenarioRecipe;

/** A submission's manifest and a task's records survive the round trip through their files. */
class SubmissionTest {
    @TempDir
    Path tmp;

    private static final String SCENARIO = """
            name: recipe
            mode: sim
            transfer: {size: 1MiB}
            repetitions: 2
            seed: 7
            implementations: [pacelab, {name: other, server: pacelab, client: pacelab}]
            """;

    @Test
    void theManifestRoundTripsWithItsRecipe() throws Exception {
        ScenarioRecipe recipe = new ScenarioRecipe("recipe.yaml", SCENARIO, tmp, 3, 4096L, List.of("other"));
        Submission s = new Submission(Submission.VERSION, "id1", "pacelab-id1", tmp.toString(), false, 2, Submission.Recipe.of(recipe),
                List.of(List.of(new Submission.SubmittedRun("c/1", "c", 1, 7, 1), new Submission.SubmittedRun("c/2", "c", 2, 8, 3))));
        s.write(tmp.resolve("sub"));
        Submission back = Submission.read(tmp.resolve("sub"));
        assertEquals(s, back);
        assertEquals(2, back.runs());
        Scenario again = back.scenario().recipe().scenario();
        assertEquals(3, again.repetitions());
        assertEquals(List.of(7L, 8L, 9L), again.seeds());
        assertEquals(4096L, again.transfer().value().bytesPerStream());
        assertEquals(List.of("other"), again.implementations().stream().map(i -> i.name().value()).toList());
    }

    @Test
    void aDamagedManifestIsAnErrorNamingTheFile() throws Exception {
        Files.createDirectories(tmp.resolve("bad"));
        Files.writeString(tmp.resolve("bad").resolve(Submission.FILE), "{not json");
        IOException e = assertThrows(IOException.class, () -> Submission.read(tmp.resolve("bad")));
        assertTrue(e.getMessage().startsWith(tmp.resolve("bad").resolve(Submission.FILE) + ": cannot read the submission"), e.getMessage());
    }

    @Test
    void recordsAreFoundByRunKey() throws Exception {
        Path f = AttemptRecord.file(tmp, "cfg-1a2b/3");
        assertEquals(tmp.resolve("runs").resolve("cfg-1a2b.3.json"), f);
        assertNull(AttemptRecord.read(f));
        AttemptRecord r = new AttemptRecord("cfg-1a2b/3", 2, AttemptRecord.FINISHED, "5_0", "n1", "2026-01-01T00:00:00Z", 1.5, null,
                -1, 1024, true, false);
        r.write(f);
        assertEquals(r, AttemptRecord.read(f));
        assertTrue(AttemptRecord.read(f).ended());
        Files.writeString(f, "{half");
        assertNull(AttemptRecord.read(f), "a record being replaced reads as none, not as an error");
    }
}
