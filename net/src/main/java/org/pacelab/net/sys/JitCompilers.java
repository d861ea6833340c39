package org.pacelab.net.sys;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Waits for this JVM's JIT compilers to go quiet after a warm-up. A warm-up makes hundreds of methods hot at once and
 * the C2 compiler works through that queue for seconds afterwards: measured on this 2-core VM (docs/benchmarks.md,
 * "Compilations after the endpoints' warm-up"), a pacelab client warmed with 200 MiB still ran C2 compilations queued
 * during its warm-up (task ids from JVM start-up on) for 2–3 s into the measured transfer, at up to 72 % of a CPU, while
 * the relay's slow start ran. Waiting here installs that code before the measured transfer.
 *
 * <p>Activity is the CPU time of the compiler threads ({@code /proc/self/task/TID/stat} of the threads named
 * {@code C1 CompilerThre…} and {@code C2 CompilerThre…}), which grows while a compilation runs; the JVM's own total
 * compilation time ({@link CompilationMXBean}) only grows when one ends, so a single long C2 compilation looked like a
 * quiet compiler. Where {@code /proc} cannot be read, that total is used.
 */
public final class JitCompilers {
    /** Poll interval. */
    public static final long POLL_MILLIS = 50;
    /** Polls in a row without new compiler activity that count as quiet. */
    public static final int QUIET_POLLS = 3;
    /** The longest wait, whatever the deadline. */
    public static final long LIMIT_NANOS = 5_000_000_000L;

    private JitCompilers() {}

    /**
     * Waits until the JIT compilers have shown no new activity for {@value #QUIET_POLLS} polls {@value #POLL_MILLIS} ms
     * apart, or until {@code deadline} ({@link System#nanoTime}) or {@value #LIMIT_NANOS} ns have passed, whichever
     * comes first. An interrupt ends the wait (the flag stays set).
     *
     * @return the nanoseconds waited
     */
    public static long awaitQuiet(long deadline) {
        return awaitQuiet(deadline, activity());
    }

    static long awaitQuiet(long deadline, LongSupplier activity) {
        long t0 = System.nanoTime();
        if (deadline - t0 > LIMIT_NANOS) {
            deadline = t0 + LIMIT_NANOS;
        }
        long last = activity.getAsLong();
        int quiet = 0;
        while (quiet < QUIET_POLLS && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long now = activity.getAsLong();
            quiet = now == last ? quiet + 1 : 0;
            last = now;
        }
        return System.nanoTime() - t0;
    }

    /** The compiler threads' CPU time in clock ticks, or else the JVM's total compilation time, or else a constant. */
    static LongSupplier activity() {
        Path tasks = Path.of("/proc/self/task");
        if (compilerTicks(tasks) >= 0) {
            return () -> compilerTicks(tasks);
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit != null && jit.isCompilationTimeMonitoringSupported()) {
            return jit::getTotalCompilationTime;
        }
        return () -> 0;
    }

    /** User + system clock ticks of the threads under {@code tasks} named as JIT compiler threads; -1 when unreadable. */
    static long compilerTicks(Path tasks) {
        long sum = 0;
        boolean found = false;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path t : dir) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                int open = stat.indexOf('('), close = stat.lastIndexOf(')');
                if (open < 0 || close < open) continue;
                String comm = stat.substring(open + 1, close);
                if (!comm.startsWith("C1 CompilerThre") && !comm.startsWith("C2 CompilerThre")) continue;
                String[] f = stat.substring(close + 2).split(" ");
                if (f.length < 13) continue;
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15 of stat)
                found = true;
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return found ? sum : -1;
    }
}
