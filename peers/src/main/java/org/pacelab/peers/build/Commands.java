package org.pacelab.peers.build;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a short helper command (a version query, a listing, a probe, a package install) with a bounded wait and
 * collects its output. Used by the builds here and by the lab's host checks, peers and Slurm executor.
 */
public final class Commands {
    private Commands() {}

    /** Exit status and combined output (stripped); {@code exit} is -1 when the command could not start or timed out. */
    public record Result(int exit, String output) {
        public boolean ok() {
            return exit == 0;
        }
    }

    public static Result run(String... command) {
        return run(30, List.of(command));
    }

    public static Result run(long timeoutSeconds, List<String> command) {
        return run(command, null, timeoutSeconds, List.of());
    }

    /** Runs with extra environment variables given as {@code NAME=value}. */
    public static Result run(long timeoutSeconds, List<String> command, List<String> environment) {
        return run(command, null, timeoutSeconds, environment);
    }

    public static Result run(List<String> command, Path dir, long timeoutSeconds) {
        return run(command, dir, timeoutSeconds, List.of());
    }

    /**
     * Runs {@code command} in {@code dir} (null: the current directory) with standard input from /dev/null; its
     * output goes to a temporary file, so a chatty command cannot block on a full pipe.
     */
    public static Result run(List<String> command, Path dir, long timeoutSeconds, List<String> environment) {
        Path out = null;
        try {
            out = Files.createTempFile("pacelab-cmd", ".out");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            for (String e : environment) {
                int eq = e.indexOf('=');
                pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
            }
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return new Result(-1, command.getFirst() + " did not finish within " + timeoutSeconds + " s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return new Result(-1, "cannot run " + command.getFirst() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temporary file left in /tmp
                }
            }
        }
    }
}
