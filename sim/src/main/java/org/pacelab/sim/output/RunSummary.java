package org.pacelab.sim.output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.CaptureAnalyzer;
import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.StreamedCapture;
import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryJson;

/**
 * Runs the analyzer on a simulated run's files, as {@code pacelab analyze tap.pcapng --keylog keys.log --qlog
 * SERVER_QLOG --events events.bin --client-log client.json --out DIR} would, writing summary.json, packets.csv and
 * timeline.csv into the run directory. The summary names the capture relative to that directory, so identical runs
 * in different directories have identical summaries.
 */
public final class RunSummary {
    private RunSummary() {}

    /** @param pathCapacityBytes the link's BDP plus buffer (for the slow-start overshoot), or null */
    public static RunResult analyze(RunFiles files, int serverPort, Path serverQlog, Long pathCapacityBytes) throws IOException {
        return analyze(files, serverPort, serverQlog, null, null, pathCapacityBytes);
    }

    /**
     * As {@link #analyze(RunFiles, int, Path, Long)}, with the traces of {@code serverQlog} as read while the
     * simulation wrote it ({@link QlogFiles#firstTraces()}, asked for where the analyzer would read the file, so its
     * errors come in {@link CaptureAnalyzer}'s order); a null answer reads the file.
     */
    public static RunResult analyze(RunFiles files, int serverPort, Path serverQlog, CaptureAnalyzer.QlogTraces serverQlogTraces,
                                    Long pathCapacityBytes) throws IOException {
        return analyze(files, serverPort, serverQlog, serverQlogTraces, null, pathCapacityBytes);
    }

    /**
     * As {@link #analyze(RunFiles, int, Path, CaptureAnalyzer.QlogTraces, Long)} ({@code serverQlogTraces} null: the
     * qlog file is read), with {@code streamedCapture} (null: none), the capture's pass made while the simulation
     * wrote the tap ({@link CapturePipe}), used when it is the pass the analyzer would make of the files.
     */
    public static RunResult analyze(RunFiles files, int serverPort, Path serverQlog, CaptureAnalyzer.QlogTraces serverQlogTraces,
                                    StreamedCapture streamedCapture, Long pathCapacityBytes) throws IOException {
        AnalysisOptions options = new AnalysisOptions(files.tap(), files.keyLog(), serverQlog, files.events(),
                files.clientLog(), serverPort, AnalysisOptions.DEFAULT_THRESHOLD_NS, null, files.packets(), pathCapacityBytes);
        Path name = files.dir().toAbsolutePath().normalize().getFileName();
        String runId = name == null ? "run" : name.toString();
        // timeline.csv's text made beside the pass's replay and the summary, from the traces as soon as they are read
        TimelineAhead timeline = new TimelineAhead();
        RunResult result = CaptureAnalyzer.analyze(options, runId, () -> {
            List<QlogTrace> read = serverQlogTraces == null ? null : serverQlogTraces.get();
            List<QlogTrace> traces = read != null ? read : CaptureAnalyzer.readQlogs(options);
            timeline.start(traces);
            return traces;
        }, streamedCapture);
        result.summary().put(SummaryField.CAPTURE, files.dir().relativize(files.tap()).toString());
        SummaryJson.write(result.summary(), files.summary());
        if (result.timeline() != null) {
            timeline.write(result.timeline(), files.timeline());
        }
        return result;
    }
}
