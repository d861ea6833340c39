package org.pacelab.lab.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.lab.scenario.ScenarioRecipe;

/**
 * One job array as submitted: which runs (with the attempt number each gets) every array task runs, and the
 * scenario recipe the tasks plan the campaign again from. Written to {@code DIR/slurm/ID/submission.json} before
 * {@code sbatch} runs, so that a submitting command killed at any moment leaves enough behind to find the array
 * again ({@link #jobName()} is unique) and to know what its tasks were doing.
 *
 * @param cpusPerTask CPUs each task has (simulated runs run this many at once), or 0 for a whole node
 * @param tasks       per array task index, its runs
 */
public record Submission(int version, String id, String jobName, String campaign, boolean exclusive, int cpusPerTask,
                         Recipe scenario, List<List<SubmittedRun>> tasks) {
    static final int VERSION = 1;
    static final String FILE = "submission.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** A run in a task: its key, its configuration's id and seed (checked on the node), and this attempt's number. */
    public record SubmittedRun(String run, String config, int repetition, long seed, int attempt) {}

    /** {@link ScenarioRecipe} as JSON (the base directory as a string). */
    public record Recipe(String source, String text, String baseDir, Integer repetitions, Long size, List<String> only,
                         boolean quick) {
        static Recipe of(ScenarioRecipe r) {
            return new Recipe(r.source(), r.text(), r.baseDir().toString(), r.repetitions(), r.size(), r.only(), r.quick());
        }

        public ScenarioRecipe recipe() {
            return new ScenarioRecipe(source, text, Path.of(baseDir), repetitions, size, only, quick);
        }
    }

    public Submission {
        tasks = tasks.stream().map(List::copyOf).toList();
    }

    public int runs() {
        return tasks.stream().mapToInt(List::size).sum();
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        AtomicFiles.writeString(dir.resolve(FILE), JSON.writeValueAsString(this) + "\n");
    }

    public static Submission read(Path dir) throws IOException {
        Path f = dir.resolve(FILE);
        Submission s;
        try {
            s = JSON.readValue(Files.readString(f, StandardCharsets.UTF_8), Submission.class);
        } catch (IOException | RuntimeException e) {
            throw new IOException(f + ": cannot read the submission: " + e.getMessage(), e);
        }
        if (s.version() != VERSION || s.tasks() == null || s.id() == null) {
            throw new IOException(f + ": not a submission this pacelab wrote (version " + s.version() + ")");
        }
        return s;
    }
}
