package org.pacelab.net.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * A binary output file written atomically: records go into a direct buffer, whole buffers into {@code FILE.part},
 * and {@link #close()} renames it to {@code FILE}, so a finished file is never partial and a {@code .part} left by a
 * crash holds whole records up to its last flush. The writers of the tap ({@code PcapngWriter}) and the event log
 * ({@code EventLogWriter}) put their records into {@link #buffer()}. Single-threaded, except that with
 * {@link #syncAhead(long)} the written part is synced on a background thread while writing goes on.
 */
public final class BlockFile implements AutoCloseable {
    private final Path target;
    private final Path part;
    private final String what;
    private final FileChannel channel;
    private final ByteBuffer buf;
    private final Consumer<ByteBuffer> copy;
    private boolean closed;
    /** With {@link #syncAhead}: sync after this many bytes written since the last sync began (0: only at close). */
    private long syncEvery;
    private long unsynced;
    /** The background sync in progress or last done, or null. */
    private CompletableFuture<Void> syncing;
    /** The first background sync's failure, or null. */
    private volatile IOException syncFailure;

    /**
     * @param target      the finished file's path
     * @param bufferBytes the buffer's size: the largest record that can be written
     * @param order       the byte order of the records
     * @param what        what the file is, for error messages ("capture", "event log")
     */
    public BlockFile(Path target, int bufferBytes, ByteOrder order, String what) throws IOException {
        this(target, bufferBytes, order, what, null);
    }

    /**
     * As {@link #BlockFile(Path, int, ByteOrder, String)}; {@code copy} (null: none) is also given each block of
     * bytes before it is written to the file (a read-only view, valid during the call).
     */
    public BlockFile(Path target, int bufferBytes, ByteOrder order, String what, Consumer<ByteBuffer> copy) throws IOException {
        this.target = target;
        this.copy = copy;
        this.part = target.resolveSibling(target.getFileName() + ".part");
        this.what = what;
        this.buf = ByteBuffer.allocateDirect(bufferBytes).order(order);
        this.channel = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    /**
     * Starts syncing the file's written bytes to the disk on a background thread after every {@code everyBytes} of
     * them (at most one sync at a time), so that {@link #close()}'s sync, which still comes before the rename, has
     * only the rest to write: a simulated run's 115 MB tap took 0.17-0.24 s to sync at close (docs/benchmarks.md,
     * "Simulator", 2026-12-05). The file's bytes and the guarantee of {@link #close()} do not change; a background
     * sync's failure is thrown by {@code close()}. 0 (the default): only {@code close()} syncs.
     */
    public void syncAhead(long everyBytes) {
        if (everyBytes < 0) {
            throw new IllegalArgumentException("sync interval " + everyBytes + " < 0");
        }
        syncEvery = everyBytes;
    }

    /** The buffer records are put into; call {@link #ensure} before each record. */
    public ByteBuffer buffer() { return buf; }

    /**
     * Makes room for a record of {@code bytes}, flushing the buffer when needed.
     *
     * @throws IllegalArgumentException when the record is larger than the buffer
     */
    public void ensure(int bytes) {
        if (buf.remaining() < bytes) {
            flush();
            if (buf.remaining() < bytes) {
                throw new IllegalArgumentException("a record of " + bytes + " bytes exceeds the " + what + " writer's buffer of "
                        + buf.capacity() + " bytes");
            }
        }
    }

    /** Writes the buffered records to the file. */
    public void flush() {
        try {
            buf.flip();
            if (copy != null && buf.hasRemaining()) copy.accept(buf.asReadOnlyBuffer());
            unsynced += buf.remaining();
            while (buf.hasRemaining()) channel.write(buf);
            buf.clear();
            if (syncEvery > 0 && unsynced >= syncEvery && !closed && (syncing == null || syncing.isDone())) {
                unsynced = 0;
                syncing = CompletableFuture.runAsync(this::syncQuietly, Syncer.THREAD);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + what + " " + part, e);
        }
    }

    /** The finished file's path. */
    public Path path() { return target; }

    /** Syncs the written bytes (the background thread); keeps the first failure for {@link #close()}. */
    private void syncQuietly() {
        try {
            channel.force(false);
        } catch (IOException e) {
            if (syncFailure == null) {
                syncFailure = e;
            }
        }
    }

    /** Waits for the background sync in progress, if any; the first background sync's failure, or null. */
    private IOException awaitSync() {
        if (syncing != null) {
            syncing.join();
        }
        return syncFailure;
    }

    /** Closes and deletes the partial file (the run never started). */
    public void discard() {
        if (closed) return;
        closed = true;
        awaitSync();
        try {
            channel.close();
            Files.deleteIfExists(part);
        } catch (IOException e) {
            // the partial file could not be removed; nothing else depends on it
        }
    }

    /** Writes what is buffered, syncs and renames {@code FILE.part} to {@code FILE}. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        flush();
        // not behind a background sync still running (syncs of several files share its thread): this one covers all
        channel.force(false);
        // a failed background sync may have taken the error the kernel reports once: report it here, not renamed
        IOException failed = awaitSync();
        channel.close();
        if (failed != null) {
            throw new IOException("cannot write " + what + " " + part + ": " + failed.getMessage(), failed);
        }
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The one daemon thread that runs every {@link #syncAhead} sync, started when first used. */
    private static final class Syncer {
        static final ExecutorService THREAD = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().name("file-sync").daemon().factory());
    }
}
