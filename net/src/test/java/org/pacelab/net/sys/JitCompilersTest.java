package org.pacelab.net.sys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

class JitCompilersTest {
    /** The wait ends quiet: after it, the next polls see no new compilation time (the quiet state it waited for). */
    @Test
    void waitsUntilNoCompilationTimeIsAdded() {
        long deadline = System.nanoTime() + 30_000_000_000L;
        long waited = JitCompilers.awaitQuiet(deadline);
        assertTrue(waited >= JitCompilers.QUIET_POLLS * JitCompilers.POLL_MILLIS * 1_000_000L,
                "at least " + JitCompilers.QUIET_POLLS + " polls: " + waited + " ns");
        assertTrue(System.nanoTime() - deadline < 0, "ended before the deadline");
        assertTrue(ManagementFactory.getCompilationMXBean().isCompilationTimeMonitoringSupported());
    }

    /** A deadline already past ends the wait at once, whatever the compilers do. */
    @Test
    void aPastDeadlineEndsTheWaitAtOnce() {
        long waited = JitCompilers.awaitQuiet(System.nanoTime() - 1);
        assertTrue(waited < JitCompilers.POLL_MILLIS * 1_000_000L, waited + " ns");
    }
}
