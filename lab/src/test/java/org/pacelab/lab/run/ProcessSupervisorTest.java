package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessSupervisorTest {
    @TempDir
    Path tmp;

    @Test
    void stopEndsTheProcessAndItsChildren() throws Exception {
        ProcessSupervisor s = new ProcessSupervisor(tmp.resolve(".children"));
        ChildProcess c = s.start("shell", List.of("sh", "-c", "sleep 300 & sleep 300; wait"), Map.of(), tmp,
                tmp.resolve("out"), tmp.resolve("err"));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (c.process().descendants().count() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        List<ProcessHandle> family = c.process().descendants().toList();
        assertEquals(2, family.size());
        assertTrue(Files.readString(tmp.resolve(".children")).startsWith(c.pid() + " "));
        s.stop(c, 2_000);
        assertFalse(c.alive());
        for (ProcessHandle h : family) {
            h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertFalse(h.isAlive());
        }
        assertEquals("", Files.readString(tmp.resolve(".children")));
    }

    @Test
    void leftoversOfAKilledRunnerAreStoppedByPidAndStartTime() throws Exception {
        Path registry = tmp.resolve(".children");
        ProcessSupervisor crashed = new ProcessSupervisor(registry);
        ChildProcess orphan = crashed.start("server pacelab", List.of("sleep", "300"), Map.of(), tmp, tmp.resolve("o"), tmp.resolve("e"));
        List<String> stopped = ProcessSupervisor.stopLeftovers(registry);
        assertEquals(List.of("server_pacelab (pid " + orphan.pid() + ")"), stopped);
        assertTrue(orphan.process().waitFor(10, java.util.concurrent.TimeUnit.SECONDS));
        assertFalse(Files.exists(registry));
    }

    @Test
    void aReusedPidIsNotTouched() throws Exception {
        Path registry = tmp.resolve(".children");
        Process other = new ProcessBuilder("sleep", "300").start();
        try {
            Files.writeString(registry, other.pid() + " 12345 server\n");
            assertEquals(List.of(), ProcessSupervisor.stopLeftovers(registry));
            assertTrue(other.isAlive());
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void tailGivesTheLastOutputLine() throws Exception {
        ProcessSupervisor s = new ProcessSupervisor(tmp.resolve(".children"));
        ChildProcess c = s.start("x", List.of("sh", "-c", "echo first >&2; echo 'it failed' >&2; exit 3"), Map.of(), tmp,
                tmp.resolve("out"), tmp.resolve("err"));
        assertEquals(3, c.process().waitFor());
        s.forget(c);
        assertEquals("it failed", c.tail());
    }
}
