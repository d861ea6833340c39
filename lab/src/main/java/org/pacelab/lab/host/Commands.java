package org.pacelab.lab.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs short helper commands (version queries, probes) with a bounded wait. */
public final class Commands {
    private Commands() {}

    /** Exit status and combined output; {@code exit} is -1 when the command could not be started or timed out. */
    public record Result(int exit, String output) {
        public boolean ok() {
            return exit == 0;
        }
    }

    public static Result run(long timeoutSeconds, List<String> command) {
        return run(timeoutSeconds, command, List.of());
    }

    /** Runs with extra environment variables given as {@code NAME=value}; output is collected in a temporary file. */
    public static Result run(long timeoutSeconds, List<String> command, List<String> environment) {
        java.nio.file.Path out = null;
        try {
            out = java.nio.file.Files.createTempFile("pacelab-cmd", ".out");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
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
            return new Result(p.exitValue(), java.nio.file.Files.readString(out, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return new Result(-1, "cannot run " + command.getFirst() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        } finally {
            if (out != null) {
                try {
                    java.nio.file.Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temporary file left in /tmp
                }
            }
        }
    }

    public static Result run(String... command) {
        return run(30, List.of(command));
    }
}
