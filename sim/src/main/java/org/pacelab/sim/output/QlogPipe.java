package org.pacelab.sim.output;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.pacelab.analysis.qlog.QlogReader;
import org.pacelab.analysis.qlog.QlogTrace;

/**
 * The analyzer's reading of a simulated run's server qlog while the simulation writes it: the qlog's bytes, as they
 * go to the file, also go through a bounded queue to {@link QlogReader} on a thread of its own, so the run's qlog is
 * parsed on the second CPU instead of after the simulation (docs/benchmarks.md, "Simulator"). The reader sees the
 * same bytes as the file holds and gives its traces the file's name, so the analysis is the one
 * {@code pacelab analyze --qlog FILE} makes of the file.
 */
final class QlogPipe {
    /** Blocks of the qlog writer's buffer (1 MiB) in flight: the simulation waits when the reader is this far behind. */
    static final int BLOCKS = 16;

    private final BlockQueue blocks = new BlockQueue(BLOCKS, "interrupted while reading the qlog", null);
    private final CompletableFuture<List<QlogTrace>> traces = new CompletableFuture<>();

    /** How the reader parses the bytes: {@link QlogReader#read(InputStream, Path)}, or a test's reader. */
    interface Parser {
        List<QlogTrace> read(InputStream bytes, Path file) throws IOException;
    }

    private final Thread reader;

    /** Starts the reader; {@code file} names the traces (the qlog's final path). */
    QlogPipe(Path file) {
        this(file, QlogReader::read);
    }

    QlogPipe(Path file, Parser parser) {
        reader = blocks.startReader("qlog-reader", in -> parser.read(in, file), traces);
    }

    /** Where the writer's bytes go besides the file: closing it ends the reader's input. */
    OutputStream output() {
        return new OutputStream() {
            private boolean closed;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (len > 0) {
                    put(Arrays.copyOfRange(b, off, off + len));
                }
            }

            @Override
            public void close() throws IOException {
                if (!closed) {
                    closed = true;
                    put(BlockQueue.end());
                }
            }
        };
    }

    private void put(byte[] block) throws IOException {
        try {
            // readerGone first: once the reader has ended (failed, or aborted), a put returns at once instead of
            // waiting on a full queue; the file is written regardless and traces() reports why the reader ended
            while (!blocks.readerGone()) {
                if (blocks.offerWaiting(block)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while handing the qlog to its reader");
        }
    }

    /**
     * Ends the reader without waiting for the end of the output (the run failed): it stops at its next wait for
     * bytes, drops what is queued and its thread ends; later writes are dropped. {@link #traces()} then fails.
     */
    void abort() {
        blocks.markReaderGone();
        reader.interrupt();
    }

    /** The reader's thread (tests: it ends after the output is closed or {@link #abort()}). */
    Thread readerThread() {
        return reader;
    }

    /** Blocks in the queue (tests: at most 16, none once the reader has ended). */
    int queued() {
        return blocks.size();
    }

    /** The traces, once the output is closed (waits for the reader); an I/O error as reading the file would give it. */
    List<QlogTrace> traces() throws IOException {
        try {
            return traces.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the qlog reader");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IOException(c);
        }
    }
}
