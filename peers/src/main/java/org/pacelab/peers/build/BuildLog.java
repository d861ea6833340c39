package org.pacelab.peers.build;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the steps of a build, each command's output appended to one log file (outside the cache, so a failed build
 * leaves its log to read and nothing in the cache). A failing step is one sentence with the log's last lines.
 */
public final class BuildLog {
    private final String peer;
    private final Path file;

    public BuildLog(String peer, Path file) {
        this.peer = peer;
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** Writes a line into the log (what is being done, and why). */
    public void note(String line) {
        try {
            Files.writeString(file, "# " + line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the log only helps to read what happened
        }
    }

    /** Runs {@code command} in {@code dir}, with extra environment, for at most {@code timeoutSeconds}. */
    public void run(String step, List<String> command, Path dir, Map<String, String> environment, long timeoutSeconds)
            throws BuildException {
        note(step + ": " + String.join(" ", command));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(file.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(environment);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new BuildException(peer + ": cannot start " + command.getFirst() + " (" + step + "): " + e.getMessage());
        }
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new BuildException(peer + ": " + step + " did not finish within " + timeoutSeconds + " s; the build log is "
                        + file);
            }
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BuildException(peer + ": the build was interrupted during " + step);
        }
        if (p.exitValue() != 0) {
            throw new BuildException(peer + ": " + step + " failed (" + Path.of(command.getFirst()).getFileName() + " exited with status "
                    + p.exitValue()
                    + "): " + lastLines(3) + " (the build log is " + file + ")");
        }
    }

    /** The log's last non-empty lines, joined with " | ". */
    String lastLines(int n) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(l -> !l.isBlank() && !l.startsWith("# ")).toList();
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()).stream().map(String::strip).toList());
        } catch (IOException e) {
            return "(the log cannot be read: " + e.getMessage() + ")";
        }
    }
}
