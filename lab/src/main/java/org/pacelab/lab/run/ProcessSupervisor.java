package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Starts the runner's child processes, stops them (SIGTERM, then SIGKILL after a grace period, descendants
 * included), and keeps a file of the live ones with their start times so that a runner killed without a chance
 * to clean up has its leftovers stopped when the campaign resumes.
 */
public final class ProcessSupervisor {
    private final Path registry;
    private final List<ChildProcess> live = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private boolean closed;

    public ProcessSupervisor(Path registry) {
        this.registry = registry;
    }

    /** Starts a process with its output going to the two files (appended). */
    public ChildProcess start(String name, List<String> command, Map<String, String> environment, Path workDir, Path stdout,
                              Path stderr) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(environment);
        ChildProcess c;
        synchronized (lock) {
            if (closed) {
                throw new IOException(name + ": not started, the runner is stopping");
            }
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new IOException(name + ": cannot start '" + command.getFirst() + "': " + e.getMessage(), e);
            }
            c = new ChildProcess(name, p, stdout, stderr, System.nanoTime());
            live.add(c);
        }
        writeRegistry();
        return c;
    }

    /** Stops a child: SIGTERM to it and its descendants, SIGKILL after {@code graceMillis}. Returns its exit status. */
    public int stop(ChildProcess c, long graceMillis) {
        List<ProcessHandle> family = new ArrayList<>(c.process().descendants().toList());
        c.process().destroy();
        family.forEach(ProcessHandle::destroy);
        try {
            if (!c.process().waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
                c.process().destroyForcibly();
                c.process().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            c.process().destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle h : family) {
            if (h.isAlive()) {
                h.destroyForcibly();
            }
        }
        forget(c);
        return c.process().isAlive() ? -1 : c.process().exitValue();
    }

    /** The child exited on its own: forget it. */
    public void forget(ChildProcess c) {
        live.remove(c);
        writeRegistry();
    }

    /** Stops every live child (on failure and at the end). */
    public void stopAll(long graceMillis) {
        for (ChildProcess c : List.copyOf(live)) {
            stop(c, graceMillis);
        }
    }

    /** Refuses to start anything more and stops every live child (the Ctrl-C / SIGTERM hook). */
    public void shutdown(long graceMillis) {
        synchronized (lock) {
            closed = true;
        }
        stopAll(graceMillis);
    }

    public boolean closed() {
        synchronized (lock) {
            return closed;
        }
    }

    public List<ChildProcess> live() {
        return List.copyOf(live);
    }

    private synchronized void writeRegistry() {
        StringBuilder sb = new StringBuilder();
        for (ChildProcess c : live) {
            Optional<Instant> start = c.process().info().startInstant();
            sb.append(c.pid()).append(' ').append(start.map(Instant::toEpochMilli).orElse(0L)).append(' ')
                    .append(c.name().replace(' ', '_')).append('\n');
        }
        try {
            Files.createDirectories(registry.toAbsolutePath().getParent());
            Path tmp = registry.resolveSibling(registry.getFileName() + ".tmp");
            Files.writeString(tmp, sb.toString(), StandardCharsets.UTF_8);
            Files.move(tmp, registry, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // the registry only helps clean up after a crash; a run does not fail for it
        }
    }

    /**
     * Stops processes an earlier, killed runner left behind, identified by pid and start time (so a reused pid is
     * never touched). Returns their names.
     */
    public static List<String> stopLeftovers(Path registry) {
        List<String> stopped = new ArrayList<>();
        if (!Files.isRegularFile(registry)) {
            return stopped;
        }
        try {
            for (String line : Files.readAllLines(registry, StandardCharsets.UTF_8)) {
                String[] f = line.strip().split(" ");
                if (f.length < 3) {
                    continue;
                }
                long pid = Long.parseLong(f[0]);
                long startMillis = Long.parseLong(f[1]);
                Optional<ProcessHandle> h = ProcessHandle.of(pid);
                if (h.isEmpty() || !h.get().isAlive()) {
                    continue;
                }
                long actual = h.get().info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
                if (Math.abs(actual - startMillis) > 1000) {
                    continue;
                }
                h.get().descendants().forEach(ProcessHandle::destroyForcibly);
                h.get().destroyForcibly();
                try {
                    h.get().onExit().get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // reported as stopped anyway; it was sent SIGKILL
                }
                stopped.add(f[2] + " (pid " + pid + ")");
            }
            Files.deleteIfExists(registry);
        } catch (IOException | NumberFormatException e) {
            // an unreadable registry names nothing to stop
        }
        return stopped;
    }
}
