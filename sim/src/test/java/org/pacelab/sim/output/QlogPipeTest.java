package org.pacelab.sim.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * QlogPipe's concurrency: a reader slower than the writer holds the writer at the queue's bound (back-pressure) and
 * still gets every byte; a reader that fails neither holds the writer nor keeps blocks queued; a discarded run ends
 * the reader's thread. Waits are bounded with generous timeouts; assertions are on state, not on elapsed time.
 */
class QlogPipeTest {
    private static final long TIMEOUT_S = 60;
    private static final Path FILE = Path.of("server-01.sqlog");

    private static byte[] block(int i) {
        byte[] b = new byte[1000];
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) (i * 31 + j);
        }
        return b;
    }

    /** Writes {@code blocks} blocks and closes the output, on a thread of its own; the first error is kept. */
    private static Thread writer(QlogPipe pipe, int blocks, ByteArrayOutputStream written, AtomicReference<Throwable> error) {
        Thread t = Thread.ofPlatform().name("test-qlog-writer").unstarted(() -> {
            try (OutputStream out = pipe.output()) {
                for (int i = 0; i < blocks; i++) {
                    byte[] b = block(i);
                    out.write(b, 0, b.length);
                    written.write(b, 0, b.length);
                }
            } catch (Throwable e) {
                error.set(e);
            }
        });
        t.start();
        return t;
    }

    private static void awaitEnd(Thread t) throws InterruptedException {
        t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
        assertFalse(t.isAlive(), t.getName() + " did not end");
    }

    private static void awaitState(Thread t, Thread.State... states) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (!List.of(states).contains(t.getState()) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(List.of(states).contains(t.getState()), t.getName() + " is " + t.getState());
    }

    private static void await(CountDownLatch go) throws IOException {
        try {
            go.await();
        } catch (InterruptedException e) {
            throw new java.io.InterruptedIOException();
        }
    }

    private static List<Thread> qlogReaders() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("qlog-reader") && t.isAlive()).toList();
    }

    @Test
    void aSlowReaderHoldsTheWriterAtTheQueuesBoundAndGetsEveryByte() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        QlogPipe pipe = new QlogPipe(FILE, (InputStream in, Path file) -> {
            await(go);
            in.transferTo(read);
            return List.of();
        });
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        AtomicReference<Throwable> error = new AtomicReference<>();
        int blocks = 4 * QlogPipe.BLOCKS;
        Thread w = writer(pipe, blocks, written, error);

        // the reader takes nothing: the writer fills the queue and waits there
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (pipe.queued() < QlogPipe.BLOCKS && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(QlogPipe.BLOCKS, pipe.queued());
        awaitState(w, Thread.State.TIMED_WAITING, Thread.State.WAITING);
        assertTrue(w.isAlive(), "the writer waits for the reader");
        assertEquals(QlogPipe.BLOCKS, pipe.queued(), "no more than the bound is queued");

        go.countDown();
        awaitEnd(w);
        assertEquals(null, error.get());
        assertEquals(List.of(), pipe.traces());
        awaitEnd(pipe.readerThread());
        assertArrayEquals(written.toByteArray(), read.toByteArray(), "every byte, in order");
        assertEquals(blocks * 1000, read.size());
        assertEquals(0, pipe.queued());
    }

    @Test
    void aFailingReaderNeitherHoldsTheWriterNorKeepsBlocksQueued() throws Exception {
        IOException bad = new IOException("not a qlog");
        QlogPipe pipe = new QlogPipe(FILE, (InputStream in, Path file) -> {
            in.readNBytes(10);
            throw bad;
        });
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread w = writer(pipe, 10 * QlogPipe.BLOCKS, written, error); // far more than the queue holds
        awaitEnd(w);
        awaitEnd(pipe.readerThread()); // it failed on the first block
        assertEquals(null, error.get(), "the writer is not failed by its reader");
        assertEquals(0, pipe.queued(), "nothing stays queued once the reader is gone");
        assertSame(bad, assertThrows(IOException.class, pipe::traces));
    }

    @Test
    void aReaderFailingWhileTheWriterWaitsOnAFullQueueReleasesIt() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        QlogPipe pipe = new QlogPipe(FILE, (InputStream in, Path file) -> {
            await(go);
            in.read();
            throw new IllegalStateException("parser bug");
        });
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread w = writer(pipe, 10 * QlogPipe.BLOCKS, written, error);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (pipe.queued() < QlogPipe.BLOCKS && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        awaitState(w, Thread.State.TIMED_WAITING, Thread.State.WAITING);
        go.countDown();
        awaitEnd(w);
        awaitEnd(pipe.readerThread());
        assertEquals(null, error.get());
        assertEquals(0, pipe.queued());
        assertEquals("parser bug", assertThrows(IllegalStateException.class, pipe::traces).getMessage());
    }

    @Test
    void abortEndsAReaderWaitingForBytes() throws Exception {
        QlogPipe pipe = new QlogPipe(FILE, (InputStream in, Path file) -> {
            in.transferTo(OutputStream.nullOutputStream());
            return List.of();
        });
        pipe.output().write(block(0));
        awaitState(pipe.readerThread(), Thread.State.WAITING); // in take(), for more
        pipe.abort();
        awaitEnd(pipe.readerThread());
        assertEquals(0, pipe.queued());
        assertThrows(IOException.class, pipe::traces);
        pipe.output().write(block(1)); // a write after the abort returns (dropped)
        assertEquals(0, pipe.queued());
    }

    @Test
    void discardOfAFailedRunEndsTheQlogReaderThread(@TempDir Path dir) throws Exception {
        QlogFiles q = QlogFiles.readFirst(dir, "server");
        q.apply(new byte[] {1, 2, 3, 4});
        assertFalse(qlogReaders().isEmpty(), "the reader runs");
        // the sink's header is still in the writer's buffer: the reader waits for its first block
        q.discard(); // as Simulation does for a run that failed before closeAll
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (!qlogReaders().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(List.of(), qlogReaders(), "no qlog-reader thread survives");
        assertFalse(Files.exists(dir.resolve("server-01020304.sqlog.part")), "the partial file is gone");
        assertFalse(Files.exists(dir.resolve("server-01020304.sqlog")));
        assertThrows(IOException.class, q::firstTraces);
    }
}
