package org.pacelab.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts processes for integration tests and always stops them. */
public final class Processes implements AutoCloseable {
    private final List<Process> started = new ArrayList<>();

    public Process start(Path log, String... cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (log != null) pb.redirectOutput(log.toFile());
        Process p = pb.start();
        started.add(p);
        return p;
    }

    /** Runs a command to completion (bounded), returning exit code and output. */
    public static Result run(long timeoutSeconds, String... cmd) throws IOException, InterruptedException {
        return run(timeoutSeconds, null, cmd);
    }

    public static Result run(long timeoutSeconds, java.util.Map<String, String> env, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (env != null) pb.environment().putAll(env);
        Process p = pb.start();
        byte[][] out = new byte[1][];
        Thread reader = Thread.ofPlatform().start(() -> {
            try { out[0] = p.getInputStream().readAllBytes(); } catch (IOException e) { out[0] = new byte[0]; }
        });
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            reader.join(2000);
            return new Result(-1, "timed out after " + timeoutSeconds + " s: " + (out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8)));
        }
        reader.join(5000);
        return new Result(p.exitValue(), out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8));
    }

    public record Result(int exitCode, String output) { }

    @Override
    public void close() throws InterruptedException {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : started) {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
