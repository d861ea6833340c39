package org.pacelab.net.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.pacelab.net.testing.Stalls;

/**
 * BatchHandOver: what the run's thread puts into batches reaches the writer in order, on the writer's named thread,
 * ended by one {@code end()} after the last; the run waits for a stalled writer after handing over no more than the
 * batches there are; the writer's failure (of its file, or anything else) reaches the run's thread at its next
 * hand-over or at {@code finish()} as one sentence; {@code discard()} ends a blocked writer. Waits are bounded by
 * generous timeouts; assertions are on values and state.
 */
class BatchHandOverTest {
    /** A batch: numbers. */
    private static final class Numbers {
        final List<Integer> values = new ArrayList<>();
    }

    /** Writes the numbers into {@code out}, records the writing thread, can stall or fail. */
    private static class Recording implements BatchHandOver.Writing<Numbers> {
        final List<Integer> out = Collections.synchronizedList(new ArrayList<>());
        final List<String> threads = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger written = new AtomicInteger();
        final AtomicInteger ends = new AtomicInteger();
        volatile int endedAfter = -1;

        @Override
        public void write(Numbers batch) throws IOException {
            threads.add(Thread.currentThread().getName());
            out.addAll(batch.values);
            written.incrementAndGet();
        }

        @Override
        public void clear(Numbers batch) {
            batch.values.clear();
        }

        @Override
        public void end() {
            ends.incrementAndGet();
            endedAfter = out.size();
        }
    }

    private static BatchHandOver<Numbers> start(Recording w, int batches) {
        return new BatchHandOver<>("numbers-writer", "the numbers /x/n.bin", "the numbers' writer", batches, Numbers::new, w);
    }

    /** Puts 0..count-1, {@code perBatch} to a batch. */
    private static void feed(BatchHandOver<Numbers> h, int count, int perBatch) {
        Numbers b = h.batch();
        for (int i = 0; i < count; i++) {
            if (b.values.size() == perBatch) {
                b = h.handOver();
            }
            b.values.add(i);
        }
    }

    @Test
    void everythingIsWrittenInOrderOnTheWritersThreadAndEndedOnce() throws IOException {
        Recording w = new Recording();
        BatchHandOver<Numbers> h = start(w, 4);
        assertEquals("numbers-writer", h.writerThread().getName());
        assertTrue(h.writerThread().isDaemon());
        feed(h, 100_003, 97); // far more batches than circulate: they are reused
        h.finish();
        assertFalse(h.writerThread().isAlive());
        assertEquals(100_003, w.out.size());
        for (int i = 0; i < w.out.size(); i++) {
            assertEquals(i, w.out.get(i));
        }
        assertEquals(1, w.ends.get());
        assertEquals(100_003, w.endedAfter, "end() after the last batch");
        assertTrue(w.threads.stream().allMatch("numbers-writer"::equals));
        assertEquals(100_003 / 97 + 1, w.written.get());
        assertThrows(IllegalStateException.class, h::handOver);
        assertThrows(IllegalStateException.class, h::finish);
    }

    @Test
    void anEmptyRunWritesOneEmptyLastBatch() throws IOException {
        Recording w = new Recording();
        BatchHandOver<Numbers> h = start(w, 2);
        h.finish();
        assertEquals(List.of(), w.out);
        assertEquals(1, w.written.get());
        assertEquals(1, w.ends.get());
    }

    @Test
    void theRunWaitsForAStalledWriterHavingHandedOverNoMoreThanTheBatches() throws Exception {
        CountDownLatch stall = new CountDownLatch(1);
        Recording w = new Recording() {
            @Override
            public void write(Numbers batch) throws IOException {
                try {
                    stall.await();
                } catch (InterruptedException e) {
                    throw new IOException("interrupted");
                }
                super.write(batch);
            }
        };
        BatchHandOver<Numbers> h = start(w, 5);
        AtomicInteger handedOver = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread run = Thread.ofPlatform().name("run").start(() -> {
            try {
                Numbers b = h.batch();
                for (int i = 0; i < 10_000; i++) {
                    if (b.values.size() == 10) {
                        b = h.handOver();
                        handedOver.incrementAndGet();
                    }
                    b.values.add(i);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        Stalls.awaitStalled(run, handedOver::get, Duration.ofSeconds(30));
        assertTrue(run.isAlive(), "the run waits for the writer");
        // the writer holds one batch, the queue the other four; the fifth hand-over waits for a free one
        assertEquals(4, handedOver.get());
        assertEquals(List.of(), w.out);
        stall.countDown();
        run.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(run.isAlive());
        assertEquals(null, failed.get());
        h.finish();
        assertEquals(10_000, w.out.size());
        assertEquals(9_999, w.out.get(9_999));
    }

    /** A writer whose file fails at batch {@code failAt} (1-based), as a full disk would. */
    private static Recording failingAt(int failAt, Throwable failure) {
        return new Recording() {
            @Override
            public void write(Numbers batch) throws IOException {
                if (written.incrementAndGet() == failAt) {
                    if (failure instanceof IOException e) throw e;
                    if (failure instanceof RuntimeException e) throw e;
                    throw (Error) failure;
                }
                out.addAll(batch.values);
            }
        };
    }

    @Test
    void theFilesFailureIsThrownAtTheNextHandOverAsOneSentenceAndNothingMoreIsWritten() throws Exception {
        Recording w = failingAt(3, new IOException("No space left on device"));
        BatchHandOver<Numbers> h = start(w, 3);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> feed(h, 1_000_000, 10));
        assertEquals("cannot write the numbers /x/n.bin: No space left on device", e.getCause().getMessage());
        assertEquals("No space left on device", e.getCause().getCause().getMessage());
        assertEquals(20, w.out.size(), "the two batches before the failure, nothing after");
        // finish after the failure: the writer is ended and the failure thrown again, as an IOException
        IOException again = assertThrows(IOException.class, h::finish);
        assertEquals("cannot write the numbers /x/n.bin: No space left on device", again.getMessage());
        assertFalse(h.writerThread().isAlive());
        assertEquals(0, w.ends.get());
        assertEquals(20, w.out.size());
    }

    @Test
    void aFailureWrappedAsUncheckedIsTheSameSentence() {
        Recording w = failingAt(1, new UncheckedIOException("cannot write x.part", new IOException("Broken pipe")));
        BatchHandOver<Numbers> h = start(w, 2);
        feed(h, 5, 10);
        IOException e = assertThrows(IOException.class, h::finish);
        assertEquals("cannot write the numbers /x/n.bin: Broken pipe", e.getMessage());
    }

    @Test
    void anyOtherFailureNamesTheWriterAndAnErrorIsThrownAsItIs() {
        Recording w = failingAt(1, new IllegalArgumentException("bad record"));
        BatchHandOver<Numbers> h = start(w, 2);
        feed(h, 5, 10);
        IllegalStateException e = assertThrows(IllegalStateException.class, h::finish);
        assertEquals("the numbers' writer failed: java.lang.IllegalArgumentException: bad record", e.getMessage());

        OutOfMemoryError oom = new OutOfMemoryError("test");
        BatchHandOver<Numbers> h2 = start(failingAt(1, oom), 2);
        feed(h2, 5, 10);
        assertSame(oom, assertThrows(OutOfMemoryError.class, h2::finish));
    }

    @Test
    void discardEndsABlockedWriterWithoutWritingWhatIsQueued() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Recording w = new Recording() {
            @Override
            public void write(Numbers batch) throws IOException {
                entered.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    Thread.currentThread().interrupt();
                }
            }
        };
        BatchHandOver<Numbers> h = start(w, 4);
        feed(h, 25, 10); // two batches handed over: the writer blocks in the first
        assertTrue(entered.await(30, TimeUnit.SECONDS));
        h.discard();
        assertFalse(h.writerThread().isAlive());
        assertTrue(interrupted.get(), "the blocked writer was interrupted");
        assertEquals(List.of(), w.out);
        assertEquals(0, w.ends.get());
        assertThrows(IllegalStateException.class, h::handOver);
    }

    @Test
    void fewerThanTwoBatchesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start(new Recording(), 1));
        assertEquals("batches 1 < 2: the run fills one while the writer writes another", e.getMessage());
    }
}
