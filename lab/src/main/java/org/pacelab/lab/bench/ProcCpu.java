package org.pacelab.lab.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time of processes from {@code /proc/PID/stat} (user + system, all threads; clock ticks of 1/100 s, Linux's
 * USER_HZ on every architecture pacelab runs on).
 */
public final class ProcCpu {
    /** Nanoseconds per clock tick of /proc (USER_HZ = 100). */
    static final long NANOS_PER_TICK = 10_000_000L;

    private ProcCpu() {}

    /** The fields of a stat line after the command name: index 0 is the state (field 3 of proc(5)). */
    private static String[] fields(String statLine) {
        int close = statLine.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + statLine);
        }
        return statLine.substring(close + 1).trim().split("\\s+");
    }

    /** utime + stime of the process itself (fields 14 and 15), ns. */
    public static long ownNanos(String statLine) {
        String[] f = fields(statLine);
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    }

    /** cutime + cstime (fields 16 and 17): the children it has waited for, ns. */
    public static long waitedChildrenNanos(String statLine) {
        String[] f = fields(statLine);
        return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * NANOS_PER_TICK;
    }

    /**
     * CPU time so far of a live process and all its descendants (nginx's workers), each with the children it has
     * waited for, ns; processes that exit while being read count as far as they were read.
     */
    public static long treeNanos(ProcessHandle root) {
        List<ProcessHandle> family = new ArrayList<>();
        family.add(root);
        family.addAll(root.descendants().toList());
        long total = 0;
        for (ProcessHandle h : family) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"), StandardCharsets.US_ASCII);
                total += ownNanos(stat) + waitedChildrenNanos(stat);
            } catch (IOException | IllegalArgumentException e) {
                // gone meanwhile
            }
        }
        return total;
    }

    /** The 1-minute load average, or NaN when /proc/loadavg cannot be read. */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
