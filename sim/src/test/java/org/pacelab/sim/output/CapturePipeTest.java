package org.pacelab.sim.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.StreamedCapture;
import org.pacelab.analysis.qlog.QlogReader;
import org.pacelab.sim.SimOptions;
import org.pacelab.sim.SimResult;
import org.pacelab.sim.SimScenario;
import org.pacelab.sim.Simulation;


/**
 * The capture's pass made while the simulation writes the tap (CapturePipe, StreamedCapture): the analysis that uses
 * it writes what the analysis of the files writes; a pass that is not the files' pass is not used; the writer never
 * waits for a reader that waits for the key log, and the reader's thread ends when the pipe is aborted or fails.
 */
class CapturePipeTest {
    private record Run(SimScenario scenario, SimResult result, Path qlog) {}

    private static Run run(Path dir) throws IOException {
        SimScenario s = SimOptions.parse(Map.of("--size", "2MiB", "--seed", "6", "--down", "loss=0.5%", "--analyze", "off"), dir);
        SimResult r = Simulation.run(s);
        assertTrue(r.completed(), r.outcome());
        return new Run(s, r, QlogReader.files(r.files().qlogDir()).getFirst());
    }

    /** The tap's bytes through a pipe in blocks of the writer's size, the key log handed over as given. */
    private static StreamedCapture stream(Run run, String keyLogText) throws IOException {
        RunFiles f = run.result().files();
        return stream(run, keyLogText, new CapturePipe(f.tap(), run.scenario().serverAddress().getPort(),
                AnalysisOptions.DEFAULT_THRESHOLD_NS, f.keyLog()));
    }

    private static StreamedCapture stream(Run run, String keyLogText, CapturePipe pipe) throws IOException {
        RunFiles f = run.result().files();
        byte[] tap = Files.readAllBytes(f.tap());
        Consumer<ByteBuffer> copy = pipe.copy();
        copy.accept(ByteBuffer.wrap(tap, 0, Math.min(tap.length, 4096)).slice().asReadOnlyBuffer()); // the file's header
        pipe.keyLog(keyLogText);
        for (int at = 4096; at < tap.length; at += 1 << 20) {
            copy.accept(ByteBuffer.wrap(tap, at, Math.min(1 << 20, tap.length - at)).slice().asReadOnlyBuffer());
        }
        pipe.close();
        return pipe.result();
    }

    private static byte[][] analyse(Run run, StreamedCapture streamed) throws IOException {
        RunFiles f = run.result().files();
        RunSummary.analyze(f, run.scenario().serverAddress().getPort(), run.qlog(), () -> null, streamed,
                null);
        return new byte[][] {Files.readAllBytes(f.summary()), Files.readAllBytes(f.packets()), Files.readAllBytes(f.timeline())};
    }

    @Test
    void theAnalysisWithThePassMadeWhileTheTapWasWrittenEqualsTheAnalysisOfTheFiles(@TempDir Path dir) throws Exception {
        Run run = run(dir);
        byte[][] files = analyse(run, null);
        StreamedCapture streamed = stream(run, Files.readString(run.result().files().keyLog(), StandardCharsets.ISO_8859_1));
        assertNotNull(streamed);
        byte[][] piped = analyse(run, streamed);
        assertTrue(streamed.used(), "the streamed pass was used");
        assertArrayEquals(files[0], piped[0], "summary.json");
        assertArrayEquals(files[1], piped[1], "packets.csv");
        assertArrayEquals(files[2], piped[2], "timeline.csv");
        assertTrue(files[1].length > 100_000, "a real table: " + files[1].length);
    }

    @Test
    void aPassWithAnotherKeyLogThanTheFileIsNotUsed(@TempDir Path dir) throws Exception {
        Run run = run(dir);
        byte[][] files = analyse(run, null);
        String text = Files.readString(run.result().files().keyLog(), StandardCharsets.ISO_8859_1);
        // the handshake's secrets without the last line: the pass cannot decrypt what the file's analysis decrypts
        String fewer = text.substring(0, text.lastIndexOf('\n', text.length() - 2) + 1);
        StreamedCapture streamed = stream(run, fewer);
        assertNotNull(streamed);
        byte[][] piped = analyse(run, streamed);
        assertFalse(streamed.used(), "the key log file holds another text");
        assertEquals("not used: the key log file holds another text", streamed.status());
        assertArrayEquals(files[0], piped[0], "summary.json");
        assertArrayEquals(files[1], piped[1], "packets.csv");
    }

    @Test
    void aFileLongerThanTheStreamIsAnalysedFromTheFile(@TempDir Path dir) throws Exception {
        Run run = run(dir);
        RunFiles f = run.result().files();
        StreamedCapture streamed = stream(run, Files.readString(f.keyLog(), StandardCharsets.ISO_8859_1));
        Files.write(f.tap(), new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND); // a corrupt tail
        byte[][] piped = analyse(run, streamed);
        assertFalse(streamed.used());
        byte[][] files = analyse(run, null);
        assertArrayEquals(files[0], piped[0], "summary.json (truncated, as the file's analysis says)");
    }

    @Test
    void aPassThatWouldHoldBackMoreRowsThanItsLimitGivesNoPassAndTheFilesAreAnalysed(@TempDir Path dir) throws Exception {
        Run run = run(dir);
        RunFiles f = run.result().files();
        int port = run.scenario().serverAddress().getPort();
        byte[][] files = analyse(run, null);
        CapturePipe pipe = new CapturePipe((InputStream in, StreamedCapture.KeyLogText keys) -> StreamedCapture.read(in,
                f.tap(), port, AnalysisOptions.DEFAULT_THRESHOLD_NS, f.keyLog(), keys, 100));
        StreamedCapture streamed = stream(run, Files.readString(f.keyLog(), StandardCharsets.ISO_8859_1), pipe);
        assertNull(streamed, "past the limit the pass gives up");
        assertTrue(pipe.status().startsWith("not used: the capture's reader failed: "), pipe.status());
        assertTrue(pipe.status().contains("more than 100 rows"), pipe.status());
        byte[][] piped = analyse(run, streamed);
        assertArrayEquals(files[0], piped[0], "summary.json");
        assertArrayEquals(files[1], piped[1], "packets.csv");
        assertArrayEquals(files[2], piped[2], "timeline.csv");

        // the same pass within its limit is used
        CapturePipe within = new CapturePipe((InputStream in, StreamedCapture.KeyLogText keys) -> StreamedCapture.read(in,
                f.tap(), port, AnalysisOptions.DEFAULT_THRESHOLD_NS, f.keyLog(), keys, 1_000_000));
        StreamedCapture used = stream(run, Files.readString(f.keyLog(), StandardCharsets.ISO_8859_1), within);
        assertNotNull(used);
        assertArrayEquals(files[1], analyse(run, used)[1], "packets.csv");
        assertEquals("used", within.status());
    }

    @Test
    void aFullQueueBeforeTheKeyLogEndsThePipeInsteadOfWaiting(@TempDir Path dir) throws Exception {
        AtomicInteger passes = new AtomicInteger();
        CapturePipe pipe = new CapturePipe((InputStream in, StreamedCapture.KeyLogText keys) -> {
            passes.incrementAndGet();
            keys.get(); // as the real pass: nothing is read until the key log is there
            throw new AssertionError("the key log never comes");
        });
        Consumer<ByteBuffer> copy = pipe.copy();
        for (int i = 0; i < 4 * CapturePipe.BLOCKS; i++) { // more than the queue holds: the writer must not wait
            copy.accept(ByteBuffer.allocate(1024));
        }
        pipe.readerThread().join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(pipe.readerThread().isAlive(), "the reader ended");
        assertEquals(0, pipe.queued());
        copy.accept(ByteBuffer.allocate(1024)); // later blocks are dropped
        pipe.keyLog("late");
        pipe.close();
        assertNull(pipe.result(), "no pass: the analysis reads the files");
        assertEquals(1, passes.get());
        assertTrue(pipe.status().startsWith("not used: the capture's reader failed: "), pipe.status());
    }

    @Test
    void aFailingReaderEndsAndTheWriterGoesOn(@TempDir Path dir) throws Exception {
        CapturePipe pipe = new CapturePipe((InputStream in, StreamedCapture.KeyLogText keys) -> {
            keys.get();
            in.read(new byte[10]);
            throw new IOException("the reader failed");
        });
        pipe.keyLog("keys");
        Consumer<ByteBuffer> copy = pipe.copy();
        for (int i = 0; i < 4 * CapturePipe.BLOCKS; i++) {
            copy.accept(ByteBuffer.allocate(1024)); // once the reader has failed, nothing waits for room
        }
        pipe.close();
        pipe.readerThread().join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(pipe.readerThread().isAlive());
        assertNull(pipe.result());
    }

    @Test
    void abortEndsAReaderThatWaitsForBytes(@TempDir Path dir) throws Exception {
        CapturePipe pipe = new CapturePipe((InputStream in, StreamedCapture.KeyLogText keys) -> {
            keys.get();
            while (in.read() >= 0) {
                // reads until the pipe ends
            }
            throw new AssertionError("an aborted pipe has no end marker");
        });
        pipe.keyLog("keys");
        pipe.copy().accept(ByteBuffer.allocate(100));
        pipe.abort(); // the run failed
        pipe.readerThread().join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(pipe.readerThread().isAlive(), "the reader's thread ended");
        assertNull(pipe.result());
    }
}
