package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.plan.DcSetup;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;

/**
 * The disk space a relay, netns or direct run writes, estimated before it starts, and the check that stops a campaign
 * before a run the disk cannot hold: an emulator that runs out of space dies mid-transfer and a run's raw files are
 * lost anyway, so it is better not to start it. The factors are per byte the client downloads, from the files of the
 * highway campaign (56 runs of 512 MiB, 2026-12-02), rounded up:
 * <ul>
 *   <li>tap ({@code collect.tap}, relay and netns): 1.07-1.10 x measured (every packet whole, both directions, pcapng
 *       block headers), counted as {@value #TAP_FACTOR} x;
 *   <li>event log ({@code collect.events}, relay and netns): 0.11-0.16 x, counted as {@value #EVENTS_FACTOR} x;
 *   <li>qlog ({@code collect.qlog}): 0.19-0.47 x for the servers that write one (aioquic to quic-go), counted as
 *       {@value #QLOG_FACTOR} x;
 *   <li>per-packet table ({@code collect.packets} with a tap): {@code packets.csv} 0.05-0.08 x plus its copy in the
 *       store, counted as {@value #PACKETS_FACTOR} x;
 *   <li>a fixed {@value #MARGIN_MIB} MiB for the logs, the summary, the store's write-ahead log and the file system's
 *       own reserve.
 * </ul>
 * A dual-connectivity run downloads its transfer once per pair, or for a fixed duration its paths' rates times the
 * duration; when a path's rate is not known ahead (unlimited or trace-driven) a fixed-duration run's size is unknown, and
 * only the margin is checked for it (the planner's 64 GiB stand-in transfer size is never taken as a size). Simulated
 * runs are not checked (several run at once, and a full disk fails them with an error instead of
 * a hang).
 */
final class RunSpace {
    static final double TAP_FACTOR = 1.15;
    static final double EVENTS_FACTOR = 0.2;
    static final double QLOG_FACTOR = 0.5;
    static final double PACKETS_FACTOR = 0.1;
    static final long MARGIN_MIB = 256;

    /** The usable space of the file system holding a directory (FileStore.getUsableSpace in the campaign). */
    @FunctionalInterface
    interface FreeSpace {
        long usableBytes(Path dir) throws IOException;

        FreeSpace FILE_STORE = dir -> Files.getFileStore(dir).getUsableSpace();
    }

    /** The estimate: the total and its parts, for the message. */
    record Need(long bytes, List<String> parts) {}

    private RunSpace() {}

    /** The bytes the client(s) of a run download, or -1 when unknown (a fixed-duration run over a path of unknown rate). */
    static long downloaded(Configuration c) {
        DcSetup dc = c.dc();
        if (dc == null) {
            return c.transfer().totalBytes();
        }
        if (dc.durationNs() > 0) {
            long a = dc.spec().a().rateBps(), b = dc.spec().b().rateBps();
            if (a <= 0 || b <= 0) {
                return -1; // 0: unlimited or trace-driven
            }
            return (long) ((a + b) / 8.0 * dc.durationNs() / 1e9);
        }
        return c.transfer().totalBytes() * dc.flows().size();
    }

    /** What a run of the configuration writes with what the scenario collects. */
    static Need estimate(Configuration c, Collect collect) {
        long b = downloaded(c);
        boolean emulated = c.mode() == Mode.RELAY || c.mode() == Mode.NETNS;
        List<String> parts = new ArrayList<>();
        long total = 0;
        if (b < 0) {
            parts.add("transfer size unknown (a path's rate is unlimited or trace-driven): files not estimated");
            total += part(parts, "margin", MARGIN_MIB << 20);
            return new Need(total, parts);
        }
        if (emulated && collect.tap()) {
            total += part(parts, "tap", (long) (TAP_FACTOR * b));
            if (collect.packets()) {
                total += part(parts, "per-packet table", (long) (PACKETS_FACTOR * b));
            }
        }
        if (emulated && (collect.events() || c.dc() != null)) {
            total += part(parts, "event log", (long) (EVENTS_FACTOR * b));
        }
        if (collect.qlog()) {
            total += part(parts, "qlog", (long) (QLOG_FACTOR * b));
        }
        total += part(parts, "margin", MARGIN_MIB << 20);
        return new Need(total, parts);
    }

    private static long part(List<String> parts, String what, long bytes) {
        parts.add(what + " " + format(bytes));
        return bytes;
    }

    /**
     * Stops the campaign before the run when the campaign's file system has less usable space than the run needs. The
     * run's directory from an earlier attempt is emptied before the run starts, so what it holds counts as free.
     */
    static void require(RunSpec r, CampaignLayout layout, Collect collect, FreeSpace free) throws InsufficientSpaceException {
        Need need = estimate(r.configuration(), collect);
        long usable;
        try {
            usable = free.usableBytes(layout.root());
        } catch (IOException e) {
            return; // a file system that does not say how much is free is not a reason to stop
        }
        long available = usable + size(layout.runDir(r));
        if (available >= need.bytes()) {
            return;
        }
        throw new InsufficientSpaceException("not enough disk space for the next run (" + RunRecorder.label(r) + "): "
                + layout.root() + " has " + format(usable) + " free and the run needs about " + format(need.bytes()) + " ("
                + String.join(", ", need.parts()) + "); free some space there, give --out a directory on a disk with more room, "
                + "or collect less in the scenario (collect: {tap: off} saves the largest part, qlog: off and events: off the "
                + "next); the finished runs are stored and the same command resumes the campaign");
    }

    /** The bytes of the regular files under {@code dir} (0 when it does not exist). */
    static long size(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    /** Bytes for a message: "44 KiB", "590 MiB", "1.1 GiB". */
    static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        if (bytes < 1L << 20) {
            return (bytes >> 10) + " KiB";
        }
        if (bytes < 1L << 30) {
            return (bytes >> 20) + " MiB";
        }
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
