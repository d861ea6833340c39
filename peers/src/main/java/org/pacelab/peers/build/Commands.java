package org.pacelab.peers.build;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short helper command (a listing, a version query) with a bounded wait and collects its output. */
final class Commands {
    private Commands() {}

    /** Exit status (-1 when it could not start or timed out) and combined output. */
    record Result(int exit, String output) {}

    static Result run(List<String> command, Path dir, long timeoutSeconds) {
        Path out = null;
        try {
            out = Files.createTempFile("pacelab-build-cmd", ".out");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return new Result(-1, command.getFirst() + " did not finish within " + timeoutSeconds + " s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temporary file left behind
                }
            }
        }
    }
}
