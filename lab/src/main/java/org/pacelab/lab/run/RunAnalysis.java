package org.pacelab.lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.CaptureAnalyzer;
import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.clientlog.ClientLog;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryJson;
import org.pacelab.analysis.table.TimelineCsv;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.PathCapacity;
import org.pacelab.net.spec.SpecException;

/**
 * Runs the analyzer on what a run left in its directory (tap, key log, the server's qlog, the emulator's event log,
 * the client log) and writes summary.json, packets.csv and timeline.csv beside them — the layout
 * {@code pacelab analyze --out} uses.
 */
public final class RunAnalysis {
    private RunAnalysis() {}

    /**
     * @param serverPort    the server's port on the tap, or null to find the server from the handshake
     * @param clientLog     the client's JSON log, or null (third-party clients)
     * @param clientWallNs  the client process's wall time as the runner measured it, or -1
     * @param clientName    names the client in the reason when goodput from the client log is unavailable
     * @param link          the emulated link, for the slow-start overshoot (its BDP plus buffer); or null
     */
    public static AnalysedRun analyze(Path dir, String runKey, Integer serverPort, long transferBytes, Path clientLog,
                                      long clientWallNs, String clientName, Collect collect, LinkSpec link)
            throws RunFailedException {
        return analyze(dir, runKey, serverPort, transferBytes, clientLog, clientWallNs, clientName, collect, null, link);
    }

    /**
     * @param noTap why the run has no tap at all (e.g. no emulator in its path), or null
     * @param link  the emulated link, for the slow-start overshoot (its BDP plus buffer); or null
     */
    public static AnalysedRun analyze(Path dir, String runKey, Integer serverPort, long transferBytes, Path clientLog,
                                      long clientWallNs, String clientName, Collect collect, String noTap, LinkSpec link)
            throws RunFailedException {
        Path tap = dir.resolve(RunFiles.TAP);
        Summary summary;
        Path packets = null;
        Path timelineFile = null;
        if (noTap != null || !collect.tap() || !Files.isRegularFile(tap)) {
            summary = new Summary();
            summary.put(SummaryField.TRANSFER_BYTES, transferBytes);
            summary.put(SummaryField.TRANSFER_BYTES_SOURCE, "option");
            String why = noTap != null ? noTap : collect.tap() ? "the emulator wrote no tap" : "collect.tap is off";
            goodputFromClientLog(summary, clientLog);
            for (SummaryField f : SummaryField.values()) {
                if (f.metric() && !summary.has(f)) {
                    summary.unavailable(f, why);
                }
            }
        } else {
            Path keys = dir.resolve(RunFiles.KEYS);
            Path qlog = dir.resolve(RunFiles.QLOG);
            Path events = dir.resolve(RunFiles.EVENTS);
            if (collect.packets()) {
                packets = dir.resolve(RunFiles.PACKETS);
            }
            AnalysisOptions options = new AnalysisOptions(tap, nonEmpty(keys) ? keys : null, hasFiles(qlog) ? qlog : null,
                    Files.isRegularFile(events) ? events : null, clientLog, serverPort, AnalysisOptions.DEFAULT_THRESHOLD_NS,
                    transferBytes, packets, pathCapacity(link));
            RunResult r;
            try {
                r = CaptureAnalyzer.analyze(options, runKey);
            } catch (IOException | RuntimeException e) {
                throw new RunFailedException("the analysis of " + tap + " failed: " + e.getMessage(), e);
            }
            summary = r.summary();
            if (r.timeline() != null && r.timeline().size() > 0) {
                timelineFile = dir.resolve(RunFiles.TIMELINE);
                try {
                    TimelineCsv.write(r.timeline(), timelineFile);
                } catch (IOException e) {
                    throw new RunFailedException("cannot write " + timelineFile + ": " + e.getMessage(), e);
                }
            }
        }
        if (clientLog == null && clientWallNs > 0) {
            summary.put(SummaryField.GOODPUT_WALL_MBPS, 8.0 * transferBytes / clientWallNs * 1000);
            summary.unavailable(SummaryField.GOODPUT_APP_MBPS, clientName + " writes no log of request and last-byte times; "
                    + "goodput_wall_mbps is from the client process's wall time as the runner measured it");
        }
        try {
            SummaryJson.write(summary, dir.resolve(RunFiles.SUMMARY));
        } catch (IOException e) {
            throw new RunFailedException("cannot write " + dir.resolve(RunFiles.SUMMARY) + ": " + e.getMessage(), e);
        }
        return new AnalysedRun(summary, packets != null && Files.isRegularFile(packets) ? packets : null, timelineFile,
                clientWallNs, transferBytes);
    }

    /** The link's BDP plus buffer, or null when it has none or cannot be resolved (then the overshoot says so). */
    static Long pathCapacity(LinkSpec link) {
        if (link == null) {
            return null;
        }
        try {
            long c = PathCapacity.bytes(link);
            return c > 0 ? c : null;
        } catch (SpecException e) {
            return null;
        }
    }

    /** Without a capture, the goodputs the client's own log gives (request to last byte, and its wall time). */
    private static void goodputFromClientLog(Summary summary, Path clientLog) throws RunFailedException {
        if (clientLog == null || !Files.isRegularFile(clientLog)) {
            return;
        }
        ClientLog log;
        try {
            log = ClientLog.read(clientLog);
        } catch (IOException e) {
            throw new RunFailedException("cannot read the client log: " + e.getMessage(), e);
        }
        summary.put(SummaryField.TRANSFER_BYTES, log.totalBytes());
        summary.put(SummaryField.TRANSFER_BYTES_SOURCE, "client_log");
        if (log.transferSpanNs() > 0) {
            summary.put(SummaryField.GOODPUT_APP_MBPS, 8.0 * log.totalBytes() / log.transferSpanNs() * 1000);
        }
        if (log.wallTimeNs() > 0) {
            summary.put(SummaryField.GOODPUT_WALL_MBPS, 8.0 * log.totalBytes() / log.wallTimeNs() * 1000);
        }
    }

    private static boolean nonEmpty(Path f) {
        try {
            return Files.isRegularFile(f) && Files.size(f) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean hasFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isPresent();
        } catch (IOException e) {
            return false;
        }
    }
}
