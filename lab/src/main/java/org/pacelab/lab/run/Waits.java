package org.pacelab.lab.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Bounded waits: polling for readiness, failing fast when the process being waited for exits; and a client awaited
 * while the processes it depends on (the emulator, the server) must keep running.
 */
final class Waits {
    private static final long POLL_MILLIS = 25;

    /**
     * A process that must outlive the one waited for (the emulator, a server), with what a message calls it.
     *
     * @param what e.g. "the emulator", "server ngtcp2"
     */
    record Watched(String what, ChildProcess process) {}

    private Waits() {}

    static void until(ChildProcess p, BooleanSupplier ready, long timeoutNs, String what)
            throws RunFailedException, InterruptedException {
        long deadline = System.nanoTime() + timeoutNs;
        while (!ready.getAsBoolean()) {
            if (!p.alive()) {
                throw new RunFailedException(p.name() + " exited with status " + p.process().exitValue() + " before it was ready: "
                        + p.tail());
            }
            if (System.nanoTime() > deadline) {
                throw new RunFailedException("gave up waiting " + timeoutNs / 1_000_000_000L + " s for " + what + ": " + p.tail());
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * Waits up to {@code timeoutNs} for {@code p} to exit and returns whether it did; fails at once, naming it and the
     * last line of its standard error, when a watched process exits first (an emulator that died of a full disk
     * leaves the client waiting for packets until its timeout otherwise). Driven by the processes' exit, not by
     * polling, so waiting costs no CPU while a real-time transfer runs.
     */
    static boolean exit(ChildProcess p, long timeoutNs, List<Watched> watched) throws RunFailedException, InterruptedException {
        List<CompletableFuture<Process>> exits = new ArrayList<>();
        exits.add(p.process().onExit());
        for (Watched w : watched) {
            exits.add(w.process().process().onExit());
        }
        boolean any;
        try {
            CompletableFuture.anyOf(exits.toArray(new CompletableFuture<?>[0])).get(timeoutNs, TimeUnit.NANOSECONDS);
            any = true;
        } catch (TimeoutException e) {
            any = false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for a process's exit failed", e);
        }
        if (p.alive()) {
            requireAlive(watched, "during the transfer");
        }
        return any && !p.alive();
    }

    /** Fails, naming the first watched process that is no longer running and its last output line. */
    static void requireAlive(List<Watched> watched, String when) throws RunFailedException {
        for (Watched w : watched) {
            if (!w.process().alive()) {
                throw new RunFailedException(w.what() + " exited " + when + " (status " + w.process().process().exitValue() + "): "
                        + w.process().tail());
            }
        }
    }

    /**
     * Waits until the files under {@code dir} have not grown for {@code quietMillis} (a server still writing its
     * qlog while the connection drains), at most {@code maxMillis}.
     */
    static void quiet(java.nio.file.Path dir, long quietMillis, long maxMillis) throws InterruptedException {
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        long last = size(dir);
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS * 2);
            long now = size(dir);
            if (now != last) {
                last = now;
                stableSince = System.nanoTime();
            } else if (System.nanoTime() - stableSince >= quietMillis * 1_000_000L) {
                return;
            }
        }
    }

    private static long size(java.nio.file.Path dir) {
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.walk(dir)) {
            return s.filter(java.nio.file.Files::isRegularFile).mapToLong(p -> {
                try {
                    return java.nio.file.Files.size(p);
                } catch (java.io.IOException e) {
                    return 0;
                }
            }).sum();
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }
}
