package org.pacelab.net.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmServiceThreadsTest {
    @Test
    void onlyTheVmThreadAndGcWorkersStopTheWorld() {
        assertTrue(JvmServiceThreads.stopsTheWorld("VM Thread\n"));
        assertTrue(JvmServiceThreads.stopsTheWorld("GC Thread#0"));
        assertTrue(JvmServiceThreads.stopsTheWorld("GC Thread#11"));
        assertFalse(JvmServiceThreads.stopsTheWorld("C2 CompilerThre"));
        assertFalse(JvmServiceThreads.stopsTheWorld("G1 Conc#0"));
        assertFalse(JvmServiceThreads.stopsTheWorld("main"));
        assertFalse(JvmServiceThreads.stopsTheWorld("VM Periodic Tas"));
    }

    @Test
    void leavesOtherThreadsAloneAndSkipsEntriesThatAreNotThreads(@TempDir Path tasks) throws IOException {
        thread(tasks, "41", "main");
        thread(tasks, "42", "C1 CompilerThre");
        Files.createDirectories(tasks.resolve("self"));
        assertEquals(List.of(), JvmServiceThreads.promote(tasks, 10));
    }

    @Test
    void aRefusalIsOneSentenceNamingTheThread(@TempDir Path tasks) throws IOException {
        // no such thread: the kernel refuses (ESRCH), as it refuses a user without CAP_SYS_NICE (EPERM)
        thread(tasks, "2147483600", "GC Thread#0");
        List<String> r = JvmServiceThreads.promote(tasks, 10);
        assertEquals(1, r.size());
        assertTrue(r.getFirst().startsWith("not applied: GC Thread#0 refused SCHED_FIFO ("), r.getFirst());
    }

    @Test
    void anUnreadableTaskDirectoryIsASentence(@TempDir Path dir) {
        List<String> r = JvmServiceThreads.promote(dir.resolve("missing"), 10);
        assertEquals(1, r.size());
        assertTrue(r.getFirst().startsWith("not applied: cannot list "), r.getFirst());
    }

    private static void thread(Path tasks, String tid, String comm) throws IOException {
        Files.createDirectories(tasks.resolve(tid));
        Files.writeString(tasks.resolve(tid).resolve("comm"), comm + "\n");
    }
}
