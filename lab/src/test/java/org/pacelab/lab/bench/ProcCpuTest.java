package org.pacelab.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcCpuTest {
    /** A stat line whose command name holds spaces and parentheses (proc(5): the name ends at the last ')'). */
    private static final String STAT = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 31 7 3 20 0 1 0 100 0 0";

    @Test
    void readsOwnAndWaitedChildrenTimesAfterTheCommandName() {
        assertEquals((250 + 31) * 10_000_000L, ProcCpu.ownNanos(STAT));
        assertEquals((7 + 3) * 10_000_000L, ProcCpu.waitedChildrenNanos(STAT));
    }

    @Test
    void aShellThatWaitedForABusyChildReportsItsCpuTime(@TempDir Path dir) throws Exception {
        Path stat = dir.resolve("stat");
        // the child does a fixed amount of work (tens of milliseconds of CPU at any load); the shell's cutime + cstime
        // then hold it
        Process p = new ProcessBuilder("sh", "-c", "\"$@\"; cat /proc/$$/stat > " + stat, "sh", "sh", "-c",
                "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        long cpu = ProcCpu.waitedChildrenNanos(Files.readString(stat));
        assertTrue(cpu >= ProcCpu.NANOS_PER_TICK, "child CPU " + cpu + " ns");
    }

    @Test
    void aLiveTreeCountsItsDescendants() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "sleep 30 & wait").start();
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (p.toHandle().descendants().findAny().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(p.toHandle().descendants().findAny().isPresent());
            assertTrue(ProcCpu.treeNanos(p.toHandle()) >= 0);
            assertTrue(ProcCpu.treeNanos(ProcessHandle.current()) > 0, "this JVM has used CPU");
        } finally {
            p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void loadAverageIsANumber() {
        double l = ProcCpu.loadAverage();
        assertTrue(l >= 0, "load " + l);
    }
}
