package org.pacelab.sim.output;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import org.pacelab.analysis.StreamedCapture;

/**
 * The analyzer's pass over a simulated run's tap while the simulation writes it: each block of the pcapng, as it
 * goes to the file, also goes through a bounded queue to {@link StreamedCapture#read} on a thread of its own, so the
 * capture is dissected on the second CPU instead of after the simulation (docs/benchmarks.md, "Simulator"). The pass
 * waits for the key log's text once the handshake's secrets are logged ({@link #keyLog}); the qlog's matches wait
 * until the analysis. Nothing here changes a result: the analysis uses the pass only when the files turn out to be
 * what it read, and analyses the files otherwise ({@link org.pacelab.analysis.CaptureAnalyzer}).
 *
 * <p>No deadlock: the reader waits only for the queue (the simulation's blocks, which come until {@link #close()})
 * and, before its pass, for the key log. Until the key log is handed over, the writer never waits: a full queue
 * then ends the pipe (the analysis reads the files). After it, the writer waits for room, which the reader makes.
 */
public final class CapturePipe {
    /** Blocks of the capture writer's buffer (1 MiB) in flight: the simulation waits when the reader is this far behind. */
    static final int BLOCKS = 16;

    private final BlockQueue blocks = new BlockQueue(BLOCKS, "interrupted while reading the capture", "the capture's pass was ended");
    private final CompletableFuture<String> keyLog = new CompletableFuture<>();
    private final CompletableFuture<StreamedCapture> result = new CompletableFuture<>();
    private final Thread reader;

    /** How the reader reads: {@link StreamedCapture#read}, or a test's reader. */
    interface Pass {
        StreamedCapture read(InputStream capture, StreamedCapture.KeyLogText keyLog) throws IOException;
    }

    /** Starts the reader of the capture {@code capture}, analysed with {@code serverPort}, the threshold and the key log file. */
    public CapturePipe(Path capture, Integer serverPort, long thresholdNs, Path keyLogFile) {
        this((in, keys) -> StreamedCapture.read(in, capture, serverPort, thresholdNs, keyLogFile, keys));
    }

    CapturePipe(Pass pass) {
        reader = blocks.startReader("capture-reader", in -> pass.read(in, this::awaitKeyLog), result);
    }

    /** Where the capture writer's blocks go besides the file. */
    public Consumer<ByteBuffer> copy() {
        return b -> {
            byte[] block = new byte[b.remaining()];
            b.get(b.position(), block);
            put(block);
        };
    }

    /** The key log's text once the handshake's secrets are in it: the reader's pass may start. */
    public void keyLog(String text) {
        keyLog.complete(text);
    }

    private String awaitKeyLog() throws IOException {
        try {
            return keyLog.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the key log");
        } catch (ExecutionException e) {
            throw new IOException("no key log for the capture's pass", e.getCause());
        }
    }

    private void put(byte[] block) {
        try {
            while (!blocks.readerGone()) {
                if (blocks.offer(block)) {
                    return;
                }
                if (!keyLog.isDone()) {
                    end(); // the reader may wait for the key log, and the writer must not wait for the reader
                    return;
                }
                if (blocks.offerWaiting(block)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end();
        }
    }

    /** The capture is complete: the reader reads to the end (or, without a key log, ends). */
    public void close() {
        if (!keyLog.isDone()) {
            end();
            return;
        }
        put(BlockQueue.end());
    }

    /** Ends the reader without a result (the run failed, or the pipe cannot go on): its thread ends. */
    public void abort() {
        end();
    }

    private void end() {
        blocks.markReaderGone();
        keyLog.completeExceptionally(new IOException("the capture's pass was ended"));
        reader.interrupt();
        blocks.clear();
    }

    /** The reader's thread (tests). */
    Thread readerThread() {
        return reader;
    }

    /** Blocks in the queue (tests). */
    int queued() {
        return blocks.size();
    }

    /**
     * The pass once the capture is closed (waits for the reader), or null when there is none (the pipe ended, or the
     * reader failed: the analysis then reads the files and reports what is wrong with them).
     */
    /**
     * How the analysis read the capture (written to no file: tests and debug logging): the pass's
     * {@link StreamedCapture#status()}, or "not used: " and why the reader gave no pass (its exception, e.g. the
     * pipe ended, the scan's or the held rows' limit).
     */
    public String status() {
        if (!result.isDone()) {
            return "not used: the capture's reader has not ended";
        }
        try {
            return result.join().status();
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            return "not used: the capture's reader failed: " + (e.getCause() == null ? e : e.getCause());
        }
    }

    public StreamedCapture result() {
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort();
            return null;
        } catch (ExecutionException e) {
            return null;
        }
    }
}
