package org.pacelab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.qlog.QlogReader;
import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.sim.output.QlogFiles;
import org.pacelab.sim.output.RunSummary;

/**
 * A simulated run's analyzer reads the server qlog while the simulation writes it (QlogFiles.readFirst); what it
 * reads and what it writes must be what reading the finished file gives ({@code pacelab analyze} of the run).
 */
class QlogReadWhileWrittenTest {
    private static SimScenario scenario(Path dir, long seed) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--size", "2MiB");
        o.put("--seed", Long.toString(seed));
        o.put("--down", "loss=0.5%");
        return SimOptions.parse(o, dir);
    }

    @Test
    void analysisOfTheQlogReadWhileWrittenEqualsTheAnalysisOfTheFile(@TempDir Path dir) throws Exception {
        SimScenario s = scenario(dir, 3);
        SimResult run = Simulation.run(s);
        assertTrue(run.completed(), run.outcome());
        assertNotNull(run.analysis());
        byte[] summary = Files.readAllBytes(run.files().summary());
        byte[] packets = Files.readAllBytes(run.files().packets());
        byte[] timeline = Files.readAllBytes(run.files().timeline());
        List<Path> qlogs = QlogReader.files(run.files().qlogDir());
        assertEquals(1, qlogs.size(), qlogs.toString());

        // the same analysis from the files alone, written over the run's outputs
        RunSummary.analyze(run.files(), s.serverAddress().getPort(), qlogs.getFirst(), Simulation.pathCapacity(s));
        assertArrayEquals(summary, Files.readAllBytes(run.files().summary()), "summary.json");
        assertArrayEquals(packets, Files.readAllBytes(run.files().packets()), "packets.csv");
        assertArrayEquals(timeline, Files.readAllBytes(run.files().timeline()), "timeline.csv");
        assertEquals(1, run.analysis().summary().integer(SummaryField.QLOG_FILES), "the qlog was matched");
        assertTrue(run.analysis().summary().integer(SummaryField.QLOG_PACKETS_SENT) > 1000);
    }

    @Test
    void aRunWithTheAnalyzerUsesThePassMadeWhileTheTapWasWritten(@TempDir Path dir) throws Exception {
        SimScenario s = SimOptions.parse(Map.of("--preset", "quic-steps", "--size", "3MiB", "--seed", "1"), dir);
        SimResult run = Simulation.run(s);
        assertTrue(run.completed(), run.outcome());
        assertNotNull(run.analysis());
        assertEquals("used", run.capturePass(), "the capture's streamed pass");
        byte[] summary = Files.readAllBytes(run.files().summary());
        byte[] packets = Files.readAllBytes(run.files().packets());
        // the files' analysis writes the same
        RunSummary.analyze(run.files(), s.serverAddress().getPort(), QlogReader.files(run.files().qlogDir()).getFirst(),
                Simulation.pathCapacity(s));
        assertArrayEquals(summary, Files.readAllBytes(run.files().summary()), "summary.json");
        assertArrayEquals(packets, Files.readAllBytes(run.files().packets()), "packets.csv");

        SimResult off = Simulation.run(SimOptions.parse(Map.of("--size", "1MiB", "--seed", "1", "--analyze", "off"),
                dir.resolve("off")));
        assertNull(off.capturePass(), "no pass without the analyzer");
    }

    @Test
    void tracesReadWhileWrittenEqualThoseReadFromTheFile(@TempDir Path dir) throws Exception {
        // a run without the analyzer writes the same qlog; read it back through QlogFiles.readFirst's pipe
        SimResult run = Simulation.run(SimOptions.parse(Map.of("--size", "1MiB", "--seed", "5", "--analyze", "off"),
                dir.resolve("run")));
        Path file = QlogReader.files(run.files().qlogDir()).getFirst();
        byte[] bytes = Files.readAllBytes(file);
        QlogFiles q = QlogFiles.readFirst(dir.resolve("copy"), "server");
        var sink = q.apply(new byte[] {1, 2, 3, 4});
        sink.close(); // a header-only trace for the first file; the pipe carries what the stream is given
        q.closeAll();
        List<QlogTrace> header = q.firstTraces();
        assertEquals(QlogReader.read(q.files().getFirst()).size(), header.size());
        assertEquals(q.files().getFirst(), header.getFirst().file());

        List<QlogTrace> fromFile = QlogReader.read(file);
        List<QlogTrace> fromStream = QlogReader.read(new java.io.ByteArrayInputStream(bytes), file);
        assertEquals(fromFile.size(), fromStream.size());
        for (int i = 0; i < fromFile.size(); i++) {
            QlogTrace a = fromFile.get(i);
            QlogTrace b = fromStream.get(i);
            assertEquals(a.file(), b.file());
            assertEquals(a.connectionIds(), b.connectionIds());
            assertEquals(a.packetsSent(), b.packetsSent());
            assertEquals(a.events(), b.events());
            assertEquals(a.notes(), b.notes());
            assertEquals(a.sent().count(), b.sent().count());
            assertTrue(a.packetsSent() > 100, "a real trace: " + a.packetsSent());
        }
    }

    @Test
    void theQlogReadersTracesAreAskedForAfterTheCaptureAndKeyLogAsTheFileWouldBeRead(@TempDir Path dir) throws Exception {
        // CaptureAnalyzer's order: a capture or key-log error comes before the qlog's (here: before its reader's)
        SimScenario s = scenario(dir, 4);
        SimResult run = Simulation.run(s);
        Path qlog = QlogReader.files(run.files().qlogDir()).getFirst();
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        org.pacelab.analysis.CaptureAnalyzer.QlogTraces failing = () -> {
            asked.incrementAndGet();
            throw new java.io.IOException("the qlog reader failed");
        };
        int port = s.serverAddress().getPort();
        Files.delete(run.files().keyLog());
        assertThrows(java.nio.file.NoSuchFileException.class,
                () -> RunSummary.analyze(run.files(), port, qlog, failing, Simulation.pathCapacity(s)));
        Files.delete(run.files().tap());
        assertThrows(java.nio.file.NoSuchFileException.class,
                () -> RunSummary.analyze(run.files(), port, qlog, failing, Simulation.pathCapacity(s)));
        assertEquals(0, asked.get(), "the traces were not asked for");
    }
}
