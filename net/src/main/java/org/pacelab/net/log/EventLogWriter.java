package org.pacelab.net.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.pacelab.net.file.BatchHandOver;
import org.pacelab.net.file.BlockFile;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;

/**
 * Writes the event log ({@link EventLogFormat}) to {@code FILE.part} and renames it to {@code FILE} on close, so
 * a finished log is never partial; after a crash the {@code .part} file is readable up to its last whole record.
 * Single-threaded: call it from the thread that drives the model. With {@link #writeOnThread} the records are put
 * into batches on that thread and written to the file by a thread of their own ({@link BatchHandOver}).
 */
public final class EventLogWriter implements LinkObserver, AutoCloseable {
    /** The buffer's size: the largest record (a FLOW record with its text); also a batch's with {@link #writeOnThread}. */
    static final int BUFFER_BYTES = 1 << 18;
    /** Batches that circulate with {@link #writeOnThread}: the model's thread waits when all are full. */
    static final int BATCHES = 8;

    private final BlockFile file;
    /** Where records go: the file's buffer, or with {@link #writeOnThread} the batch being filled. */
    private ByteBuffer buf;
    /** With {@link #writeOnThread}: the writer; null: records go to the file's buffer on the calling thread. */
    private BatchHandOver<ByteBuffer> writer;
    private boolean closed;

    public EventLogWriter(Path target, long epochNanosOfTimeZero, long seed) throws IOException {
        this.file = new BlockFile(target, BUFFER_BYTES, ByteOrder.LITTLE_ENDIAN, "event log");
        this.buf = file.buffer();
        buf.put(EventLogFormat.MAGIC).putShort((short) EventLogFormat.VERSION)
                .putShort((short) EventLogFormat.RECORD_BYTES).putInt(0).putLong(epochNanosOfTimeZero).putLong(seed);
        flush();
    }

    @Override
    public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int queuePackets) {
        onPathEvent(type, direction, 0, p, time, cause, queuePackets);
    }

    /**
     * From now on the records are written to the file by a daemon thread named {@code threadName}: this thread puts
     * them into batches of {@value #BUFFER_BYTES} bytes and hands whole batches over ({@link BatchHandOver}: at most
     * {@value #BATCHES} batches, the caller waits when all are full; the file's failure is thrown at the next hand-over
     * or by {@link #close()} as one sentence naming the file, and the {@code .part} is deleted). The file's bytes are
     * the same. Call {@link #syncAhead} before this, if at all; {@link #flush()} then hands the batch over without
     * waiting for the write.
     */
    public void writeOnThread(String threadName) {
        if (writer != null || closed) {
            throw new IllegalStateException("the event log " + path() + " is already written on a thread, or closed");
        }
        file.flush(); // the header
        writer = new BatchHandOver<>(threadName, "the event log " + path(), "the event log's writer", BATCHES,
                () -> ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN),
                new BatchHandOver.Writing<>() {
                    @Override
                    public void write(ByteBuffer b) {
                        file.write(b.flip());
                    }

                    @Override
                    public void clear(ByteBuffer b) {
                        b.clear();
                    }
                });
        buf = writer.batch();
    }

    /** Makes room for a record of {@code bytes}: in the file's buffer, or a fresh batch. */
    private void ensure(int bytes) {
        if (writer == null) {
            file.ensure(bytes);
        } else if (buf.remaining() < bytes) {
            if (bytes > BUFFER_BYTES) {
                throw new IllegalArgumentException("a record of " + bytes + " bytes exceeds the event log writer's buffer of "
                        + BUFFER_BYTES + " bytes");
            }
            buf = writer.handOver();
        }
    }

    @Override
    public void onPathEvent(EventType type, int direction, int path, Packet p, long time, DropCause cause, int queuePackets) {
        ensure(EventLogFormat.RECORD_BYTES);
        buf.putLong(time).putLong(p.id()).putInt(p.flow()).putInt(p.size()).put((byte) type.code())
                .put((byte) direction).put((byte) cause.code()).put((byte) path).putInt(queuePackets);
    }

    /** Records what a flow id stands for (e.g. its 5-tuple). */
    public void describeFlow(int flow, long time, String description) {
        byte[] text = description.getBytes(StandardCharsets.UTF_8);
        ensure(EventLogFormat.RECORD_BYTES + text.length);
        buf.putLong(time).putLong(0).putInt(flow).putInt(text.length).put((byte) EventLogFormat.TYPE_FLOW)
                .put((byte) 0).put((byte) 0).put((byte) 0).putInt(0).put(text);
    }

    /**
     * Writes buffered records to the file (whole records only); with {@link #writeOnThread}, hands them over to the
     * writer (when there are any) without waiting for the write.
     */
    public void flush() {
        if (writer == null) {
            file.flush();
        } else if (buf.position() > 0) {
            buf = writer.handOver();
        }
    }

    /** Syncs the written part of the file in the background every {@code everyBytes} ({@link BlockFile#syncAhead}). */
    public void syncAhead(long everyBytes) {
        if (writer != null) {
            throw new IllegalStateException("the event log's sync interval is set before it is written on a thread");
        }
        file.syncAhead(everyBytes);
    }

    public Path path() { return file.path(); }

    /** Closes and deletes the partial file (the run never started, or failed): a writer thread ends unwritten. */
    public void discard() {
        closed = true;
        if (writer != null) {
            writer.discard();
        }
        file.discard();
    }

    /**
     * Writes what is buffered, syncs and renames {@code FILE.part} to {@code FILE}; with {@link #writeOnThread}, after
     * the writer has written every batch, and when it failed the {@code .part} is deleted and its failure thrown.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (writer != null) {
            try {
                writer.finish();
            } catch (IOException | RuntimeException | Error e) {
                file.discard();
                throw e;
            }
        }
        file.close();
    }
}
