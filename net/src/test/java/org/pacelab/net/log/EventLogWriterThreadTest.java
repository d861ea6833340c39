package org.pacelab.net.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.Packet;
import org.pacelab.net.testing.Stalls;

/**
 * EventLogWriter with {@code writeOnThread}: the file holds the bytes the synchronous writer writes, whatever the
 * records and flushes; the model's thread waits for a stalled file after filling no more than the batches (the file
 * is a FIFO whose reader stalls); the file's failure (a FIFO whose reader went away) is thrown on the model's thread
 * at a hand-over or at close as one sentence naming the file, and no {@code .part} and no file are left. Waits are
 * bounded by generous timeouts; assertions are on bytes and state.
 */
class EventLogWriterThreadTest {
    @TempDir
    Path dir;

    /** Events and FLOW records (texts of up to 64,000 bytes, the most a reader takes) and flushes, the same for the same seed. */
    private static void feed(EventLogWriter log, long seed, int count) {
        SplittableRandom r = new SplittableRandom(seed);
        EventType[] types = EventType.values();
        DropCause[] causes = DropCause.values();
        for (int i = 0; i < count; i++) {
            int k = r.nextInt(1000);
            if (k == 0) {
                log.describeFlow(r.nextInt(1, 10), i, "é".repeat(r.nextInt(0, 32_000)) + "udp " + i);
            } else if (k == 1) {
                log.flush();
            } else {
                log.onPathEvent(types[r.nextInt(types.length)], r.nextInt(2), r.nextInt(256),
                        new Packet(r.nextLong(), r.nextInt(), r.nextInt(1, 65_536), null), r.nextLong(),
                        causes[r.nextInt(causes.length)], r.nextInt());
            }
        }
    }

    private byte[] synchronous(long seed, int count) throws IOException {
        Path file = dir.resolve("sync-" + seed + ".bin");
        try (EventLogWriter log = new EventLogWriter(file, 123L, seed)) {
            feed(log, seed, count);
        }
        return Files.readAllBytes(file);
    }

    @Test
    void theFileHoldsTheSynchronousWritersBytes() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            Path file = dir.resolve("thread-" + seed + ".bin");
            EventLogWriter log = new EventLogWriter(file, 123L, seed);
            log.syncAhead(1 << 20);
            log.writeOnThread("event-log-writer");
            // far more than the batches hold together (8 x 256 KiB): they are reused
            feed(log, seed, 300_000);
            assertTrue(Files.exists(dir.resolve("thread-" + seed + ".bin.part")));
            log.close();
            assertFalse(Files.exists(dir.resolve("thread-" + seed + ".bin.part")));
            byte[] got = Files.readAllBytes(file);
            assertTrue(got.length > 2L * EventLogWriter.BATCHES * EventLogWriter.BUFFER_BYTES, "length " + got.length);
            assertArrayEquals(synchronous(seed, 300_000), got);
            assertEquals(seed, EventLogReader.read(file, e -> { }).seed());
        }
    }

    @Test
    void aRecordLargerThanABatchIsRefusedAsTheSynchronousWriterRefusesIt() throws IOException {
        String text = "x".repeat(EventLogWriter.BUFFER_BYTES);
        EventLogWriter sync = new EventLogWriter(dir.resolve("s.bin"), 0, 0);
        String expected = assertThrows(IllegalArgumentException.class, () -> sync.describeFlow(1, 0, text)).getMessage();
        sync.discard();
        EventLogWriter log = new EventLogWriter(dir.resolve("t.bin"), 0, 0);
        log.writeOnThread("event-log-writer");
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> log.describeFlow(1, 0, text)).getMessage());
        log.discard();
        assertFalse(Files.exists(dir.resolve("t.bin.part")));
    }

    @Test
    void theSyncIntervalIsSetBeforeTheThreadAndTheThreadOnce() throws IOException {
        EventLogWriter log = new EventLogWriter(dir.resolve("o.bin"), 0, 0);
        log.writeOnThread("event-log-writer");
        assertThrows(IllegalStateException.class, () -> log.syncAhead(1 << 20));
        assertThrows(IllegalStateException.class, () -> log.writeOnThread("again"));
        log.close();
        assertEquals(EventLogFormat.HEADER_BYTES, Files.size(dir.resolve("o.bin")));
    }

    /** A FIFO at {@code name.part}, so that the writer's file is a pipe whose reader the test controls. */
    private Path fifo(String name) throws Exception {
        Path part = dir.resolve(name + ".part");
        Process p = new ProcessBuilder("mkfifo", part.toString()).inheritIO().start();
        assertEquals(0, p.waitFor());
        return dir.resolve(name);
    }

    @Test
    void theModelWaitsForAStalledFileHavingFilledNoMoreThanTheBatches() throws Exception {
        Path file = fifo("stalled.bin");
        CountDownLatch release = new CountDownLatch(1);
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        long expected = EventLogFormat.HEADER_BYTES + 100_000L * EventLogFormat.RECORD_BYTES;
        Thread reader = Thread.ofPlatform().start(() -> {
            try (InputStream in = Files.newInputStream(dir.resolve("stalled.bin.part"))) {
                release.await();
                byte[] b = new byte[65_536];
                int n;
                while (read.size() < expected && (n = in.read(b)) > 0) {
                    read.write(b, 0, n);
                }
            } catch (IOException | InterruptedException e) {
                throw new RuntimeException(e);
            }
        });
        EventLogWriter log = new EventLogWriter(file, 0, 5);
        log.writeOnThread("event-log-writer");
        AtomicInteger fed = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread model = Thread.ofPlatform().name("model").start(() -> {
            try {
                for (int i = 0; i < 100_000; i++) {
                    log.onEvent(EventType.ARRIVAL, 0, new Packet(i, 1, 1_400, null), i, DropCause.NONE, 0);
                    fed.incrementAndGet();
                }
                log.flush(); // hands the last records over: the reader reads all without a close
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        Stalls.awaitStalled(model, fed::get, Duration.ofSeconds(30));
        assertTrue(model.isAlive(), "the model waits for the writer");
        // held: the batches, and what the pipe takes before its writer blocks (64 KiB by default; 1 MiB allowed)
        long held = (long) fed.get() * EventLogFormat.RECORD_BYTES;
        assertTrue(held <= (long) EventLogWriter.BATCHES * EventLogWriter.BUFFER_BYTES + (1 << 20),
                "the model put " + held + " bytes of records before waiting");
        release.countDown();
        model.join(TimeUnit.SECONDS.toMillis(60));
        reader.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(model.isAlive());
        assertFalse(reader.isAlive());
        assertEquals(null, failed.get());
        assertEquals(expected, read.size());
        // the same bytes as a file of the same records written synchronously
        Path sync = dir.resolve("stalled-sync.bin");
        try (EventLogWriter s = new EventLogWriter(sync, 0, 5)) {
            for (int i = 0; i < 100_000; i++) {
                s.onEvent(EventType.ARRIVAL, 0, new Packet(i, 1, 1_400, null), i, DropCause.NONE, 0);
            }
        }
        assertArrayEquals(Files.readAllBytes(sync), read.toByteArray());
        log.discard(); // a pipe cannot be synced: the test ends the writer as a failed run does
        assertFalse(Files.exists(dir.resolve("stalled.bin.part")));
    }

    /** Starts a reader of the FIFO that reads the header and goes away: writes after it fail (a broken pipe). */
    private Thread readHeaderAndLeave(Path part) {
        return Thread.ofPlatform().start(() -> {
            try (InputStream in = Files.newInputStream(part)) {
                in.readNBytes(EventLogFormat.HEADER_BYTES);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Test
    void theFilesFailureIsThrownAtAHandOverAsOneSentenceAndNothingIsLeft() throws Exception {
        Path file = fifo("broken.bin");
        Thread reader = readHeaderAndLeave(dir.resolve("broken.bin.part"));
        EventLogWriter log = new EventLogWriter(file, 0, 0);
        reader.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(reader.isAlive());
        log.writeOnThread("event-log-writer");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
            for (int i = 0; i < 10_000_000; i++) {
                log.onEvent(EventType.ARRIVAL, 0, new Packet(i, 1, 1_400, null), i, DropCause.NONE, 0);
            }
        });
        assertEquals("cannot write the event log " + file + ": Broken pipe", e.getCause().getMessage());
        log.discard();
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(dir.resolve("broken.bin.part")));
    }

    @Test
    void aFailureOfTheLastRecordsIsThrownByCloseAndNothingIsLeft() throws Exception {
        Path file = fifo("late.bin");
        Thread reader = readHeaderAndLeave(dir.resolve("late.bin.part"));
        EventLogWriter log = new EventLogWriter(file, 0, 0);
        reader.join(TimeUnit.SECONDS.toMillis(30));
        log.writeOnThread("event-log-writer");
        for (int i = 0; i < 100; i++) { // less than a batch: written only at close
            log.onEvent(EventType.ARRIVAL, 0, new Packet(i, 1, 1_400, null), i, DropCause.NONE, 0);
        }
        IOException e = assertThrows(IOException.class, log::close);
        assertEquals("cannot write the event log " + file + ": Broken pipe", e.getMessage());
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(dir.resolve("late.bin.part")));
        log.discard(); // as the run's clean-up does after a failed close: nothing left to do
        assertFalse(Files.exists(dir.resolve("late.bin.part")));
    }
}
