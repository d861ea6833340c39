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
import java.util.function.Consumer;

/**
 * A binary output file written atomically: records go into a direct buffer, whole buffers into {@code FILE.part},
 * and {@link #close()} renames it to {@code FILE}, so a finished file is never partial and a {@code .part} left by a
 * crash holds whole records up to its last flush. The writers of the tap ({@code PcapngWriter}) and the event log
 * ({@code EventLogWriter}) put their records into {@link #buffer()}. Single-threaded.
 */
public final class BlockFile implements AutoCloseable {
    private final Path target;
    private final Path part;
    private final String what;
    private final FileChannel channel;
    private final ByteBuffer buf;
    private final Consumer<ByteBuffer> copy;
    private boolean closed;

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
            while (buf.hasRemaining()) channel.write(buf);
            buf.clear();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + what + " " + part, e);
        }
    }

    /** The finished file's path. */
    public Path path() { return target; }

    /** Closes and deletes the partial file (the run never started). */
    public void discard() {
        if (closed) return;
        closed = true;
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
        channel.force(false);
        channel.close();
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
