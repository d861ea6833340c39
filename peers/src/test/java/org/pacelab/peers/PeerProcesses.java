package org.pacelab.peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * External processes of one test: started with their output in a log file, always stopped on {@link #close()}
 * (SIGTERM, then SIGKILL after 5 s), even when the test failed.
 */
public final class PeerProcesses implements AutoCloseable {
    private final List<Process> started = new ArrayList<>();

    /** The outcome of a process run to completion. */
    public record Result(int exitCode, String output) {}

    /** Starts a process in the log's directory, its output (both streams) going to the log. */
    public Process start(Path log, Map<String, String> env, String... cmd) throws IOException {
        // in the log's directory (a test's temporary one): some peers write state files into their working directory
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .directory(log.toAbsolutePath().getParent().toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        return p;
    }

    /** Runs a command to completion within {@code timeoutSeconds} (killed after that, exit code -1). */
    public Result run(long timeoutSeconds, Path log, Map<String, String> env, String... cmd)
            throws IOException, InterruptedException {
        Process p = start(log, env, cmd);
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            stop(p);
            return new Result(-1, "timed out after " + timeoutSeconds + " s: " + tail(log));
        }
        return new Result(p.exitValue(), tail(log));
    }

    /** Waits until the log file has a line matching {@code ready}, the process died, or the timeout passed. */
    public static boolean awaitLine(Process p, Path log, Predicate<String> ready, long timeoutMillis)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readAllLines(log, StandardCharsets.UTF_8).stream().anyMatch(ready)) {
                return true;
            }
            if (!p.isAlive()) {
                return false;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** Waits until some socket is bound to UDP {@code port} (from /proc/net/udp and udp6), or the timeout passed. */
    public static boolean awaitUdpBound(int port, long timeoutMillis) throws IOException, InterruptedException {
        String hexPort = String.format(":%04X ", port);
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
                Path t = Path.of(table);
                if (Files.exists(t) && Files.readAllLines(t).stream().anyMatch(l -> l.contains(hexPort))) {
                    return true;
                }
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** The last 4000 characters of a log file, for failure messages. */
    public static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        String s = Files.readString(log, StandardCharsets.UTF_8);
        return s.length() <= 4000 ? s : "..." + s.substring(s.length() - 4000);
    }

    /** SIGTERM, and SIGKILL if the process has not ended 5 s later. */
    public static void stop(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** Stops every process still running; when interrupted, kills the rest at once and keeps the interrupt. */
    @Override
    public void close() {
        for (Process p : started) {
            if (!p.isAlive()) {
                continue;
            }
            try {
                stop(p);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }
}
