package org.pacelab.net.sys;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's own threads that stop every Java thread while they work: the VM thread (safepoint operations) and the
 * garbage collector's worker threads ("GC Thread#N" in Parallel and G1 alike; concurrent marking threads are left alone). A SCHED_FIFO thread of this process waits for them
 * during a pause; at normal priority on a loaded machine they wait behind everything else, so a 5 ms collection
 * became a 90–180 ms stall of the emulator (docs/benchmarks.md, "TCP/TLS calibration"). Giving them the real-time
 * thread's priority keeps the pause as short as the collection. Threads they start later (GC workers created on
 * demand) inherit the VM thread's policy.
 */
public final class JvmServiceThreads {
    private JvmServiceThreads() { }

    /** Whether a thread with this name ({@code /proc/self/task/TID/comm}, at most 15 characters) stops the world. */
    public static boolean stopsTheWorld(String comm) {
        String n = comm.strip();
        return n.equals("VM Thread") || n.startsWith("GC Thread");
    }

    /**
     * Makes this process's stop-the-world threads SCHED_FIFO with {@code priority}.
     *
     * @return the names of the threads changed, or a sentence starting "not applied:" in the list's only element
     */
    public static List<String> promote(int priority) {
        return promote(Path.of("/proc/self/task"), priority);
    }

    static List<String> promote(Path tasks, int priority) {
        List<String> done = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path t : dir) {
                String comm;
                int tid;
                try {
                    tid = Integer.parseInt(t.getFileName().toString());
                    comm = Files.readString(t.resolve("comm")).strip();
                } catch (NumberFormatException | IOException gone) {
                    continue; // not a thread, or it ended meanwhile
                }
                if (!stopsTheWorld(comm)) continue;
                int e = Libc.setRealtimePriority(tid, priority);
                if (e != 0) return List.of("not applied: " + comm + " refused SCHED_FIFO (" + Libc.strerror(e) + ")");
                done.add(comm);
            }
        } catch (IOException e) {
            return List.of("not applied: cannot list " + tasks + " (" + e.getMessage() + ")");
        }
        return done;
    }
}
