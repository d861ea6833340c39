package org.pacelab.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.pacelab.analysis.capture.CaptureReader;
import org.pacelab.analysis.capture.CaptureReaders;
import org.pacelab.analysis.flow.ServerDetector;
import org.pacelab.analysis.flow.ServerSide;
import org.pacelab.analysis.io.AtomicOutput;
import org.pacelab.analysis.qlog.QlogMatcher;
import org.pacelab.analysis.qlog.QlogReader;
import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.analysis.quic.KeyLog;
import org.pacelab.analysis.table.PacketCsvWriter;

/**
 * Analyses one capture: finds the server (a bounded scan of the capture's start), then streams the capture once
 * through an {@link AnalysisPass} and assembles the summary. Memory stays bounded by histograms and by the qlog's
 * per-packet arrays; the per-packet table is written while streaming and appears only when complete.
 */
public final class CaptureAnalyzer {
    private CaptureAnalyzer() {}

    /**
     * Analyses the capture named in {@code options}; {@code runId} names the result.
     *
     * @throws IOException when an input cannot be read at all (a capture that is corrupt part-way gives a result
     *                     marked truncated instead)
     */
    public static RunResult analyze(AnalysisOptions options, String runId) throws IOException {
        return analyze0(options, runId, () -> readQlogs(options));
    }

    /**
     * Analyses the capture named in {@code options} with the traces of its qlog from {@code qlogTraces} (a simulated
     * run reads its qlog while writing it) instead of from {@code options.qlog()}. They are asked for where the file
     * would be read, after the capture's first scan and the key log, so errors come in the same order.
     */
    public static RunResult analyze(AnalysisOptions options, String runId, QlogTraces qlogTraces) throws IOException {
        return analyze0(options, runId, () -> List.copyOf(qlogTraces.get()));
    }

    /**
     * As {@link #analyze(AnalysisOptions, String, QlogTraces)}, with the pass made while the capture was written
     * ({@link StreamedCapture}; null: none) when it is the pass this would make of the files; otherwise (and when the
     * key log cannot be read) the files are analysed as without it, so the result and its errors are the same.
     */
    public static RunResult analyze(AnalysisOptions options, String runId, QlogTraces qlogTraces, StreamedCapture streamed)
            throws IOException {
        if (streamed == null) {
            return analyze(options, runId, qlogTraces);
        }
        String mismatch;
        try {
            mismatch = options.keyLog() == null ? "no key log file"
                    : !Files.isRegularFile(options.capture()) ? "the capture is not a regular file"
                    : streamed.mismatch(options, Files.size(options.capture()),
                            Files.readString(options.keyLog(), StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            mismatch = "the files could not be read: " + e; // the analysis of the files reports it in its order
        }
        if (mismatch != null) {
            streamed.notUsed = mismatch;
            streamed.close();
            return analyze(options, runId, qlogTraces);
        }
        // from here as analyze0 after its pass, which ran while the capture was written
        List<String> notes = new ArrayList<>(streamed.keyLog.notes());
        List<QlogTrace> traces;
        try {
            traces = List.copyOf(qlogTraces.get());
        } catch (IOException | RuntimeException e) {
            streamed.notUsed = "the qlog could not be read: " + e;
            try {
                streamed.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing); // the qlog's error is the one the analysis of the files gives
            }
            throw e;
        }
        for (QlogTrace t : traces) {
            notes.addAll(t.notes());
        }
        // the reader is closed whatever happens, even when packets.csv cannot be opened
        try (CaptureReader reader = streamed.reader;
             AtomicOutput csvOut = options.packetsCsv() == null ? null : new AtomicOutput(options.packetsCsv())) {
            PacketCsvWriter csv = csvOut == null ? null : new PacketCsvWriter(csvOut.writer());
            AnalysisPass pass = streamed.pass;
            streamed.used = true;
            if (options.events() != null) {
                // the run's event log is complete: read beside the replay for the summary's drops (EmulatorLog.Ahead)
                pass.eventsAhead = EmulatorLog.Ahead.start(options.events(), SummaryAssembler.GOODPUT_WINDOW_NS);
            }
            try {
                pass.replay(new QlogMatcher(traces), csv); // the table's rows written on their own thread meanwhile
                return result(options, runId, reader, pass, notes, csv, csvOut);
            } finally {
                pass.stopRows(); // ended before packets.csv's output closes (whatever ended the analysis)
            }
        }
    }

    /** Where the qlog's traces come from: asked for once the capture's server is known (errors in the same order). */
    @FunctionalInterface
    public interface QlogTraces {
        /** The traces (not null); an I/O error as reading the qlog files would give it. */
        List<QlogTrace> get() throws IOException;
    }

    private static RunResult analyze0(AnalysisOptions options, String runId, QlogTraces qlogTraces) throws IOException {
        List<String> notes = new ArrayList<>();
        Optional<ServerSide> server;
        List<String> embeddedKeyLogs;
        try (CaptureReader scan = CaptureReaders.open(options.capture())) {
            server = ServerDetector.detect(scan, options.serverPort());
            embeddedKeyLogs = scan.embeddedKeyLogs();
        }
        KeyLog keyLog = keyLog(options, embeddedKeyLogs);
        if (keyLog != null) {
            notes.addAll(keyLog.notes());
        }
        List<QlogTrace> traces = qlogTraces.get();
        for (QlogTrace t : traces) {
            notes.addAll(t.notes());
        }
        AtomicOutput csvOut = options.packetsCsv() == null ? null : new AtomicOutput(options.packetsCsv());
        try (csvOut; CaptureReader reader = CaptureReaders.open(options.capture())) {
            PacketCsvWriter csv = csvOut == null ? null : new PacketCsvWriter(csvOut.writer());
            AnalysisPass pass = new AnalysisPass(server.orElse(null), keyLog, new QlogMatcher(traces), options.thresholdNs(), csv);
            pass.run(reader);
            return result(options, runId, reader, pass, notes, csv, csvOut);
        }
    }

    /**
     * The run's result once {@code pass} has gone through the capture (read from the file, or streamed while it was
     * written): the reader's and the dissector's notes after {@code notes}, and packets.csv finished and committed.
     */
    private static RunResult result(AnalysisOptions options, String runId, CaptureReader reader, AnalysisPass pass,
            List<String> notes, PacketCsvWriter csv, AtomicOutput csvOut) throws IOException {
        notes.addAll(reader.notes());
        notes.addAll(pass.dissector.notes());
        RunResult result = new SummaryAssembler(options, runId, reader, pass, notes).result();
        if (csv != null) {
            pass.rowsWritten(); // a replayed pass's rows (AnalysisPass.replay), or nothing
            csv.finish();
            csvOut.commit();
        }
        return result;
    }

    /** The traces of every qlog file {@code options.qlog()} names (none without one). */
    public static List<QlogTrace> readQlogs(AnalysisOptions options) throws IOException {
        List<QlogTrace> traces = new ArrayList<>();
        if (options.qlog() != null) {
            for (Path f : QlogReader.files(options.qlog())) {
                traces.addAll(QlogReader.read(f));
            }
        }
        return traces;
    }

    private static KeyLog keyLog(AnalysisOptions options, List<String> embedded) throws IOException {
        return withEmbedded(options.keyLog() == null ? null : KeyLog.read(options.keyLog()), options.capture(), embedded);
    }

    /** {@code keyLog} (null: none) with the capture's embedded key logs added. */
    static KeyLog withEmbedded(KeyLog keyLog, Path capture, List<String> embedded) {
        if (!embedded.isEmpty()) {
            if (keyLog == null) {
                keyLog = new KeyLog();
            }
            for (String text : embedded) {
                keyLog.add(text, capture.getFileName() + " (pcapng Decryption Secrets Block)");
            }
        }
        return keyLog;
    }
}
