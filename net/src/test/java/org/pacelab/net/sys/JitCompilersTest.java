package org.pacelab.net.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JitCompilersTest {
    /** Activity that grows for five polls, then stops: the wait ends three quiet polls after it stopped. */
    @Test
    void waitsForThreeQuietPollsAfterTheLastActivity() {
        AtomicLong polls = new AtomicLong();
        long waited = JitCompilers.awaitQuiet(System.nanoTime() + 30_000_000_000L, () -> Math.min(polls.incrementAndGet(), 6));
        assertEquals(6 + JitCompilers.QUIET_POLLS, polls.get(), "the first read, five busy polls, then the quiet ones");
        assertTrue(waited >= (5 + JitCompilers.QUIET_POLLS) * JitCompilers.POLL_MILLIS * 1_000_000L, waited + " ns");
    }

    /** Activity that never stops ends the wait at the deadline. */
    @Test
    void endlessActivityEndsAtTheDeadline() {
        AtomicLong ticks = new AtomicLong();
        long waited = JitCompilers.awaitQuiet(System.nanoTime() + 300_000_000L, ticks::incrementAndGet);
        assertTrue(waited >= 300_000_000L && ticks.get() >= 5, waited + " ns, " + ticks.get() + " reads");
    }

    /** A deadline already past ends the wait at once. */
    @Test
    void aPastDeadlineEndsTheWaitAtOnce() {
        long waited = JitCompilers.awaitQuiet(System.nanoTime() - 1, () -> 1);
        assertTrue(waited < JitCompilers.POLL_MILLIS * 1_000_000L, waited + " ns");
    }

    /** Only the compiler threads' user and system ticks count (fields 14 and 15 of /proc/PID/task/TID/stat). */
    @Test
    void sumsTheCompilerThreadsTicks(@TempDir Path tasks) throws Exception {
        write(tasks, "11", "(C2 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 30 4 0 0 20 0 1 0");
        write(tasks, "12", "(C1 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 7 1 0 0 20 0 1 0");
        write(tasks, "13", "(java) R 1 2 3 4 5 6 7 8 9 10 500 50 0 0 20 0 1 0");
        assertEquals(42, JitCompilers.compilerTicks(tasks));
    }

    /** No compiler thread found, or no such directory: -1, and the JVM's compilation time is used instead. */
    @Test
    void noCompilerThreadsIsUnreadable(@TempDir Path tasks) throws Exception {
        write(tasks, "13", "(java) R 1 2 3 4 5 6 7 8 9 10 500 50 0 0 20 0 1 0");
        assertEquals(-1, JitCompilers.compilerTicks(tasks));
        assertEquals(-1, JitCompilers.compilerTicks(tasks.resolve("missing")));
    }

    /** This JVM on Linux: its compiler threads are found. */
    @Test
    void findsThisJvmsCompilerThreads() {
        assertTrue(JitCompilers.compilerTicks(Path.of("/proc/self/task")) >= 0);
    }

    private static void write(Path tasks, String tid, String statAfterPid) throws Exception {
        Path d = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(d.resolve("stat"), tid + " " + statAfterPid + "\n");
    }
}
