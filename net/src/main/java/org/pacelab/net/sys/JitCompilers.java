package org.pacelab.net.sys;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Waits for this JVM's JIT compilers to go quiet after a warm-up. A warm-up makes hundreds of methods hot at once and
 * the C2 compiler works through that queue for seconds afterwards: measured on this 2-core VM (docs/benchmarks.md,
 * "Compilations after the endpoints' warm-up"), a pacelab client warmed with 200 MiB still ran C2 compilations queued
 * during its warm-up (task ids from JVM start-up on) for 2–3 s into the measured transfer, at up to 72 % of a CPU, while
 * the relay's slow start ran. Waiting here installs that code before the measured transfer.
 */
public final class JitCompilers {
    /** Poll interval. */
    public static final long POLL_MILLIS = 50;
    /** Polls in a row without new compilation time that count as quiet. */
    public static final int QUIET_POLLS = 3;

    private JitCompilers() {}

    /**
     * Waits until the JIT compilers have added no compilation time for {@value #QUIET_POLLS} polls {@value #POLL_MILLIS}
     * ms apart, or until {@code deadline} ({@link System#nanoTime}); returns at once where the JVM does not report
     * compilation time. An interrupt ends the wait (the flag stays set).
     *
     * @return the nanoseconds waited
     */
    public static long awaitQuiet(long deadline) {
        long t0 = System.nanoTime();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return 0;
        }
        long last = jit.getTotalCompilationTime();
        int quiet = 0;
        while (quiet < QUIET_POLLS && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long now = jit.getTotalCompilationTime();
            quiet = now == last ? quiet + 1 : 0;
            last = now;
        }
        return System.nanoTime() - t0;
    }
}
