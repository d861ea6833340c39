package org.pacelab.sim.output;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A bounded queue of byte blocks ended by an end marker, written by one thread (the simulation's writer) and read as
 * an {@link InputStream} by a reader thread of its own ({@link CapturePipe}, {@link QlogPipe}). Once the reader has
 * ended ({@link #readerGone()}), nothing takes from the queue any more: the writer stops putting and what is queued is
 * dropped rather than held as long as the queue is reachable.
 */
final class BlockQueue {
    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> blocks;
    private final String interrupted;
    private final String ended;
    private volatile boolean readerGone;

    /** What the reader makes of the blocks read as one stream. */
    interface Reading<T> {
        T read(InputStream in) throws IOException;
    }

    /**
     * A queue of {@code capacity} blocks; the reader's input fails with {@code interrupted} when its thread is
     * interrupted, and, when {@code ended} is not null, with {@code ended} at its next wait for a block once the reader
     * is marked gone.
     */
    BlockQueue(int capacity, String interrupted, String ended) {
        this.blocks = new ArrayBlockingQueue<>(capacity);
        this.interrupted = interrupted;
        this.ended = ended;
    }

    /**
     * Starts the reader on a daemon thread named {@code name}: {@code result} gets what {@code reading} makes of the
     * blocks, or its failure; then the reader is gone and the queue emptied.
     */
    <T> Thread startReader(String name, Reading<T> reading, CompletableFuture<T> result) {
        Thread reader = Thread.ofPlatform().name(name).daemon().unstarted(() -> {
            try {
                result.complete(reading.read(new Input()));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            } finally {
                readerGone = true;
                blocks.clear();
            }
        });
        reader.start();
        return reader;
    }

    /** True once the reader has ended, or {@link #markReaderGone()} said it will: puts do not wait. */
    boolean readerGone() {
        return readerGone;
    }

    /** Nothing will take from the queue any more (the pipe was ended or aborted). */
    void markReaderGone() {
        readerGone = true;
    }

    /** Puts {@code block} if there is room now: true when put (dropped at once if the reader has just ended). */
    boolean offer(byte[] block) {
        return queued(blocks.offer(block));
    }

    /** Puts {@code block} if there is room within 10 ms: true when put (dropped at once if the reader has just ended). */
    boolean offerWaiting(byte[] block) throws InterruptedException {
        return queued(blocks.offer(block, 10, TimeUnit.MILLISECONDS));
    }

    private boolean queued(boolean put) {
        if (put && readerGone) {
            blocks.clear(); // the reader ended after this put looked, and may have cleared before it
        }
        return put;
    }

    /** The end marker: the reader's input ends after the blocks put before it. */
    static byte[] end() {
        return END;
    }

    /** Drops what is queued. */
    void clear() {
        blocks.clear();
    }

    /** Blocks in the queue. */
    int size() {
        return blocks.size();
    }

    /** The reader's side: the blocks in order until the end marker. */
    private final class Input extends InputStream {
        private byte[] block = new byte[0];
        private int at;
        private boolean done;

        private boolean fill() throws IOException {
            while (!done && at == block.length) {
                if (ended != null && readerGone) {
                    throw new InterruptedIOException(ended);
                }
                try {
                    block = blocks.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException(interrupted);
                }
                at = 0;
                done = block == END;
            }
            return !done;
        }

        @Override
        public int read() throws IOException {
            return fill() ? block[at++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, block.length - at);
            System.arraycopy(block, at, b, off, n);
            at += n;
            return n;
        }

        @Override
        public int available() {
            return done ? 0 : block.length - at;
        }
    }
}
