package org.pacelab.analysis;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.pacelab.analysis.capture.CaptureReader;
import org.pacelab.analysis.capture.CaptureReaders;
import org.pacelab.analysis.flow.ServerDetector;
import org.pacelab.analysis.flow.ServerSide;
import org.pacelab.analysis.quic.KeyLog;

/**
 * The analyzer's pass over a capture made while the capture is written (a simulated run's tap, read on a second
 * thread): the same server scan and pass as {@link CaptureAnalyzer} makes of the file, over the same bytes, with the
 * key log's text as the run will write it, holding back what needs the qlog ({@link AnalysisPass#holdingBack}).
 * {@link CaptureAnalyzer#analyze(AnalysisOptions, String, CaptureAnalyzer.QlogTraces, StreamedCapture)} uses it only
 * when the files turn out to be what it read — the capture as long as the bytes read, the key log's text the same,
 * no truncation — and otherwise analyses the files as without it, so the result and its errors never depend on it.
 */
public final class StreamedCapture {
    /** Bytes of the capture's start kept for the pass while the server is looked for (the scan stops early with a port). */
    static final int MAX_SCAN_BYTES = 64 << 20;

    /** The key log's text as the run will write it, once its handshake's secrets exist. */
    @FunctionalInterface
    public interface KeyLogText {
        /** The text; an exception when it will not come (then the pass ends without a result). */
        String get() throws IOException;
    }

    final Path capture;
    final Integer serverPort;
    final long thresholdNs;
    final Path keyLogFile;
    final String keyLogText;
    final KeyLog keyLog;
    final AnalysisPass pass;
    final CaptureReader reader;
    final long bytes;
    volatile boolean used;
    /** Why the analysis did not use this pass (null: not decided yet, or used). */
    volatile String notUsed;

    private StreamedCapture(Path capture, Integer serverPort, long thresholdNs, Path keyLogFile, String keyLogText,
                            KeyLog keyLog, AnalysisPass pass, CaptureReader reader, long bytes) {
        this.capture = capture;
        this.serverPort = serverPort;
        this.thresholdNs = thresholdNs;
        this.keyLogFile = keyLogFile;
        this.keyLogText = keyLogText;
        this.keyLog = keyLog;
        this.pass = pass;
        this.reader = reader;
        this.bytes = bytes;
    }

    /**
     * Reads {@code stream} (the bytes of the capture file {@code capture}) to its end on the caller's thread: finds the
     * server as {@link ServerDetector} does on the file's start, waits for the key log's text (to be written to
     * {@code keyLogFile}), then makes the pass.
     *
     * @throws IOException when the stream cannot be read or the key log's text does not come: the caller then
     *                     analyses the files
     */
    public static StreamedCapture read(InputStream stream, Path capture, Integer serverPort, long thresholdNs,
                                       Path keyLogFile, KeyLogText keyLogText) throws IOException {
        return read(stream, capture, serverPort, thresholdNs, keyLogFile, keyLogText, AnalysisPass.MAX_HELD_ROWS);
    }

    /**
     * As {@link #read(InputStream, Path, Integer, long, Path, KeyLogText)}, the pass holding back at most
     * {@code maxHeldRows} rows (tests; {@link AnalysisPass#MAX_HELD_ROWS}): past them it throws an IOException.
     */
    public static StreamedCapture read(InputStream stream, Path capture, Integer serverPort, long thresholdNs,
                                       Path keyLogFile, KeyLogText keyLogText, int maxHeldRows) throws IOException {
        Counting counted = new Counting(stream, MAX_SCAN_BYTES);
        Optional<ServerSide> server;
        List<String> embedded;
        // the scan's bytes (as far as it read ahead) are kept and read again by the pass, as the analyzer opens the
        // file twice
        counted.recording = new ByteArrayOutputStream();
        try (CaptureReader scan = CaptureReaders.open(counted, capture)) {
            server = ServerDetector.detect(scan, serverPort);
            embedded = scan.embeddedKeyLogs();
        }
        if (counted.overflow) {
            // the scan read on past what is kept: the pass could not read the capture's start again
            throw new IOException("the capture's start read for the server scan exceeds " + MAX_SCAN_BYTES + " bytes");
        }
        byte[] scanned = counted.recording.toByteArray();
        counted.recording = null;
        String text = keyLogText.get();
        KeyLog keyLog = new KeyLog();
        keyLog.add(text, keyLogFile.toString()); // as KeyLog.read(keyLogFile) reads the file holding this text
        keyLog = CaptureAnalyzer.withEmbedded(keyLog, capture, embedded);
        InputStream again = new SequenceInputStream(new ByteArrayInputStream(scanned), counted.open());
        CaptureReader reader = CaptureReaders.open(again, capture);
        try {
            AnalysisPass pass = AnalysisPass.holdingBack(server.orElse(null), keyLog, thresholdNs, maxHeldRows);
            pass.run(reader);
            return new StreamedCapture(capture, serverPort, thresholdNs, keyLogFile, text, keyLog, pass, reader, counted.count);
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /**
     * Null when this pass is the one {@link CaptureAnalyzer} makes of the files: the same capture, port, threshold and
     * key log file, the capture file as long as the stream was and the key log holding the text read, no truncation;
     * otherwise what differs.
     */
    String mismatch(AnalysisOptions options, long captureFileBytes, String keyLogFileText) {
        if (pass.truncation != null) {
            return "the stream was truncated (" + pass.truncation + ")";
        } else if (bytes != captureFileBytes) {
            return "the capture file has " + captureFileBytes + " bytes, the stream had " + bytes;
        } else if (!capture.equals(options.capture())) {
            return "another capture file";
        } else if (!Objects.equals(serverPort, options.serverPort())) {
            return "another server port";
        } else if (thresholdNs != options.thresholdNs()) {
            return "another threshold";
        } else if (!keyLogFile.equals(options.keyLog())) {
            return "another key log file";
        } else if (!keyLogText.equals(keyLogFileText)) {
            return "the key log file holds another text";
        }
        return null;
    }

    /** True once an analysis has used this pass instead of reading the capture file (tests). */
    public boolean used() {
        return used;
    }

    /**
     * "used" once an analysis used this pass, "not used: REASON" once it read the files instead (which field did
     * not match), "not analysed" before (written to no file: tests and debug logging).
     */
    public String status() {
        String reason = notUsed;
        return used ? "used" : reason != null ? "not used: " + reason : "not analysed";
    }

    /** Ends the stream's use (the result is not used). */
    public void close() throws IOException {
        reader.close();
    }

    /** Counts the bytes read; while {@code recording} is set, keeps them; closing leaves the stream open. */
    static final class Counting extends FilterInputStream {
        private final int maxRecorded;
        long count;
        ByteArrayOutputStream recording;
        /** The scan wanted more than {@code maxRecorded} bytes: it was given the end of the stream instead. */
        boolean overflow;

        Counting(InputStream in, int maxRecorded) {
            super(in);
            this.maxRecorded = maxRecorded;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (recording != null && len > 0) {
                // never more than can be kept: a byte read is a byte kept, so the pass reads the stream without a hole
                int room = maxRecorded - recording.size();
                if (room <= 0) {
                    overflow = true;
                    return -1;
                }
                len = Math.min(len, room);
            }
            int n = in.read(b, off, len);
            if (n > 0) {
                count += n;
                if (recording != null) {
                    recording.write(b, off, n);
                }
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            throw new IOException("skip is not supported"); // every byte read is counted and, while scanning, kept
        }

        @Override
        public boolean markSupported() {
            return false;
        }

        @Override
        public void close() {
            // the scan's reader closes its stream; the pass reads on
        }

        /** The stream for the pass: closing it closes the underlying one. */
        InputStream open() {
            Counting self = this;
            return new FilterInputStream(self) {
                @Override
                public void close() throws IOException {
                    self.in.close();
                }
            };
        }
    }
}
