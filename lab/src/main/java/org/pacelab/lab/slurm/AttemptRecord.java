package org.pacelab.lab.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.pacelab.analysis.io.AtomicFiles;

/**
 * What an array task tells the submitting command about one of its runs, in
 * {@code DIR/slurm/ID/runs/CONFIG.REP.json}, written atomically: {@code running} when the attempt starts, then
 * {@code finished} (the run's {@code summary.json} and tables are in its directory) or {@code failed} with the
 * error; {@code terminated} when Slurm stopped the task (scancel, time limit, preemption) before the run ended.
 *
 * @param startedAt    ISO-8601 instant the attempt started on the node
 * @param clientWallNs the client process's wall time, or -1 (simulation)
 * @param packets      whether {@code packets.csv} was written
 * @param timeline     whether {@code timeline.csv} was written
 */
public record AttemptRecord(String run, int attempt, String status, String job, String node, String startedAt, double seconds,
                            String error, long clientWallNs, long bytes, boolean packets, boolean timeline) {
    public static final String RUNNING = "running";
    public static final String FINISHED = "finished";
    public static final String FAILED = "failed";
    public static final String TERMINATED = "terminated";
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The record's file for a run key {@code CONFIG/REP}. */
    public static Path file(Path submissionDir, String runKey) {
        return submissionDir.resolve("runs").resolve(runKey.replace('/', '.') + ".json");
    }

    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        AtomicFiles.writeString(file, JSON.writeValueAsString(this) + "\n");
    }

    /** The record, or null when there is none (yet) or it cannot be read. */
    public static AttemptRecord read(Path file) {
        try {
            return JSON.readValue(Files.readString(file, StandardCharsets.UTF_8), AttemptRecord.class);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    public boolean ended() {
        return status.equals(FINISHED) || status.equals(FAILED);
    }
}
