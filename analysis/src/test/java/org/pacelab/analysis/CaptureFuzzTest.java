package org.pacelab.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.pacelab.analysis.qlog.QlogReader;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the files the analyzer reads: a capture (pcap or pcapng, with or without the key log in a
 * Decryption Secrets Block) through the whole analysis — readers, link layers, IP/UDP/TCP, QUIC dissection with
 * the Initial keys and the embedded secrets, the TLS hellos, the metrics — and a qlog (JSON-SEQ or JSON). Bad files
 * may only raise {@link IOException} (the readers' format exceptions are IOExceptions naming the byte offset).
 * Seeds: a pacelab transfer in the simulator (tap.pcapng, the same as pcap and with its keys embedded, and its qlog).
 */
class CaptureFuzzTest {
    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("pacelab-fuzz", ".bin");
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void capture(byte[] data) throws IOException {
        Files.write(FILE, data);
        try {
            CaptureAnalyzer.analyze(AnalysisOptions.of(FILE), "fuzz");
        } catch (IOException e) {
            // a sentence naming the byte offset: what the user sees
        }
    }

    @FuzzTest(maxDuration = "10s")
    void qlog(byte[] data) throws IOException {
        Files.write(FILE, data);
        try {
            QlogReader.read(FILE);
        } catch (IOException e) {
            // a sentence naming the line or record
        }
    }
}
