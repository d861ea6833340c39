package org.pacelab.lab.run;

import java.util.function.BooleanSupplier;

/** Bounded polling for readiness, failing fast when the process being waited for exits. */
final class Waits {
    private static final long POLL_MILLIS = 25;

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
