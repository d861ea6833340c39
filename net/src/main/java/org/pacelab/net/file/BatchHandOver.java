package org.pacelab.net.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A file's writing moved off the run's thread: the run's thread fills batches (of whatever it records) and hands whole
 * batches over to a writer thread of their own, which writes them in order. The simulator's tap ({@code TapRecorder})
 * and event log ({@code EventLogWriter#writeOnThread}) use it.
 *
 * <p>Memory is bounded: a fixed number of batches circulate between the two threads, and {@link #handOver()} waits for
 * the writer when all are full. A failure of the writer ends the writing (the batches are only returned from then
 * on); the run's thread throws it at its next hand-over, or at {@link #finish()}, as one sentence naming the file
 * ({@code cannot write FILE: CAUSE}). {@link #discard()} (the run failed) ends a writer without writing what is queued.
 * One run thread calls {@link #batch()}, {@link #handOver()}, {@link #finish()} and {@link #discard()}; the owner
 * closes or deletes its file afterwards, on that thread.
 *
 * @param <B> a batch
 */
public final class BatchHandOver<B> {
    /** What the writer thread does. */
    public interface Writing<B> {
        /** Writes {@code batch}, on the writer's thread. */
        void write(B batch) throws IOException;

        /** Empties {@code batch} for reuse, on the writer's thread, after it was written (or skipped after a failure). */
        void clear(B batch);

        /** After the last batch was written (not after a failure), on the writer's thread: e.g. flushes the file. */
        default void end() throws IOException {}
    }

    private final String file;
    private final String writerName;
    private final Writing<B> writing;
    private final Supplier<B> create;
    private final BlockingQueue<B> full;
    private final BlockingQueue<B> free;
    private final Thread writer;
    private B batch;
    /** The last batch, set before it is put: the queue's hand-over makes it visible to the writer. */
    private B last;
    private volatile Throwable failure;
    private volatile boolean aborted;
    private boolean finished;

    /**
     * Creates {@code batches} batches and starts the writer, a daemon thread named {@code threadName}.
     *
     * @param file       the file, for the failure's sentence ("the capture /x/tap.pcapng")
     * @param writerName the writer, for other sentences ("the tap's writer")
     */
    public BatchHandOver(String threadName, String file, String writerName, int batches, Supplier<B> create,
            Writing<B> writing) {
        if (batches < 2) {
            throw new IllegalArgumentException("batches " + batches + " < 2: the run fills one while the writer writes another");
        }
        this.file = file;
        this.writerName = writerName;
        this.writing = writing;
        this.create = create;
        this.full = new ArrayBlockingQueue<>(batches);
        this.free = new ArrayBlockingQueue<>(batches);
        for (int i = 1; i < batches; i++) {
            free.add(create.get());
        }
        batch = create.get();
        writer = Thread.ofPlatform().name(threadName).daemon().unstarted(this::write);
        writer.start();
    }

    /** The batch the run's thread fills now. */
    public B batch() {
        B b = batch;
        if (b == null) {
            throw new IllegalStateException(finished ? writerName + " was finished" : "a hand-over to " + writerName + " failed");
        }
        return b;
    }

    /**
     * Hands the current batch over and returns a free one, waiting for the writer while none is; throws the writer's
     * failure (an {@link UncheckedIOException} of the sentence above when the file failed).
     */
    public B handOver() {
        if (finished) {
            throw new IllegalStateException(writerName + " was finished");
        }
        rethrow();
        B b = batch();
        batch = null;
        try {
            full.put(b); // never waits: at most as many batches exist as the queue holds
            B next;
            while ((next = free.poll(100, TimeUnit.MILLISECONDS)) == null) {
                rethrow();
                if (!writer.isAlive()) {
                    throw new IllegalStateException(writerName + " ended before it was finished");
                }
            }
            batch = next;
            return next;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing over to " + writerName, e);
        }
    }

    /** The writer's thread: the batches in order until the last; after a failure it only returns them. */
    private void write() {
        try {
            while (true) {
                B b = full.take();
                boolean end = b == last;
                if (failure == null && !aborted) {
                    try {
                        writing.write(b);
                        if (end) {
                            writing.end();
                        }
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
                writing.clear(b);
                free.put(b);
                if (end) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // aborted: the run failed and its files are discarded
        }
    }

    /** The writer's failure on the run's thread. */
    private void rethrow() {
        Throwable t = failure;
        if (t == null) {
            return;
        }
        IOException io = io(t);
        if (io != null) {
            throw new UncheckedIOException(failed(io));
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(writerName + " failed: " + t, t);
    }

    private static IOException io(Throwable t) {
        return t instanceof UncheckedIOException u ? u.getCause() : t instanceof IOException e ? e : null;
    }

    private IOException failed(IOException cause) {
        return new IOException("cannot write " + file + ": " + cause.getMessage(), cause);
    }

    /**
     * Hands the current batch over as the last, waits until the writer has written it (and run {@link Writing#end()})
     * and ended, and throws its failure: an {@link IOException} of the sentence above when the file failed. The owner
     * then closes its file, or deletes it when this threw. Once only.
     */
    public void finish() throws IOException {
        if (finished) {
            throw new IllegalStateException(writerName + " was finished");
        }
        finished = true;
        // the last batch, also after a failure: the writer returns batches until it sees the last
        B b = batch == null ? create.get() : batch;
        batch = null;
        last = b;
        try {
            full.put(b);
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            discard();
            throw new IOException("interrupted while waiting for " + writerName, e);
        }
        Throwable t = failure;
        if (t != null) {
            IOException io = io(t);
            if (io != null) {
                throw failed(io);
            }
            rethrow();
        }
    }

    /** Ends the writer without writing what is still queued, and waits until it has ended (the run failed). */
    public void discard() {
        finished = true;
        batch = null;
        aborted = true;
        writer.interrupt();
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The writer's thread. */
    public Thread writerThread() {
        return writer;
    }
}
