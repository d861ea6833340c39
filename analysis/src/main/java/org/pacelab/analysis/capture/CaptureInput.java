package org.pacelab.analysis.capture;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Sequential reads of a capture file through one large reusable direct buffer (no per-record allocation).
 * The window {@code [position, limit)} of {@link #buffer()} holds unread bytes; {@link #ensure(int)} refills it.
 */
final class CaptureInput implements Closeable {
    static final int DEFAULT_BUFFER = 8 << 20;
    /** Largest record accepted: well above the 256 KiB snap length of common tools. */
    static final int MAX_RECORD = 64 << 20;

    private final Path path;
    private final ReadableByteChannel channel;
    private final long size;
    private ByteBuffer buf;
    private long bufferFileOffset; // file offset of buf index 0
    private boolean eof;

    CaptureInput(Path path, int bufferSize) throws IOException {
        this.path = path;
        FileChannel file = FileChannel.open(path, StandardOpenOption.READ);
        this.channel = file;
        this.size = file.size();
        this.buf = ByteBuffer.allocateDirect(bufferSize); // direct: the channel reads into it without a bounce copy
        buf.limit(0);
    }

    /**
     * Reads a capture as it is written ({@code path} names it in messages): its size is not known, so a record is
     * limited only by {@link #MAX_RECORD}.
     */
    CaptureInput(Path path, ReadableByteChannel channel, int bufferSize) {
        this.path = path;
        this.channel = channel;
        this.size = Long.MAX_VALUE;
        this.buf = ByteBuffer.allocateDirect(bufferSize);
        buf.limit(0);
    }

    Path path() {
        return path;
    }

    long size() {
        return size;
    }

    ByteBuffer buffer() {
        return buf;
    }

    void order(ByteOrder order) {
        buf.order(order);
    }

    /** File offset of the buffer's current position. */
    long offset() {
        return bufferFileOffset + buf.position();
    }

    /** File offset of an absolute index into the buffer. */
    long offsetOf(int index) {
        return bufferFileOffset + index;
    }

    /** Bytes not yet consumed, buffered or not. */
    long remainingInFile() {
        return size - offset();
    }

    /**
     * Makes at least {@code n} unread bytes available at the buffer's position.
     * Returns false when the file ends first (the available bytes stay readable). The buffer grows only as far as
     * the file still reaches: a record announcing more than that is cut short, and its length costs no memory.
     */
    boolean ensure(int n) throws IOException {
        if (buf.remaining() >= n) {
            return true;
        }
        if (n > buf.capacity()) {
            if (n > MAX_RECORD) {
                throw new CaptureFormatException(path, offset(), "a record of " + n
                        + " bytes is larger than the " + MAX_RECORD + "-byte limit; the file is probably corrupt");
            }
            long capacity = n > remainingInFile() ? remainingInFile() : Math.max(n, buf.capacity() * 2L);
            if (capacity > buf.capacity()) {
                ByteBuffer bigger = ByteBuffer.allocateDirect((int) capacity).order(buf.order());
                bufferFileOffset += buf.position();
                bigger.put(buf);
                bigger.flip();
                buf = bigger;
            }
        }
        // a full buffer smaller than n ends the loop: the file was shorter than n when opened (read() would return 0)
        while (buf.remaining() < n && buf.remaining() < buf.capacity() && !eof) {
            bufferFileOffset += buf.position();
            buf.compact();
            int r = channel.read(buf);
            if (r < 0) {
                eof = true;
            }
            buf.flip();
        }
        return buf.remaining() >= n;
    }

    /** Skips n bytes (which must be available). */
    void skip(int n) {
        buf.position(buf.position() + n);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
