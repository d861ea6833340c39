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
    /** Where records go on the calling thread (without {@link #writeOnThread}): the file's buffer. */
    private final ByteBuffer buf;
    /** With {@link #writeOnThread}: the writer; null: records go to the file's buffer on the calling thread. */
    private BatchHandOver<Words> writer;
    /** With {@link #writeOnThread}: the batch being filled. */
    private Words words;
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
     * each record's fields into a batch as four words ({@link Words}, cheaper than a byte buffer's puts under C1), and
     * hands whole batches of up to {@value #BUFFER_BYTES} bytes of records over; the writer lays the words out as the
     * file's bytes ({@link BatchHandOver}: at most
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
                Words::new, new BatchHandOver.Writing<>() {
                    @Override
                    public void write(Words w) {
                        w.writeTo(file);
                    }

                    @Override
                    public void clear(Words w) {
                        w.clear();
                    }
                });
        words = writer.batch();
    }

    /** A batch with room for a record of {@code bytes}: the current one, or the next after a hand-over. */
    private Words room(int bytes) {
        Words w = words;
        if (BUFFER_BYTES - w.bytes < bytes) {
            if (bytes > BUFFER_BYTES) {
                throw new IllegalArgumentException("a record of " + bytes + " bytes exceeds the event log writer's buffer of "
                        + BUFFER_BYTES + " bytes");
            }
            words = null;
            w = words = writer.handOver();
        }
        return w;
    }

    @Override
    public void onPathEvent(EventType type, int direction, int path, Packet p, long time, DropCause cause, int queuePackets) {
        if (writer != null) {
            room(EventLogFormat.RECORD_BYTES).add(time, p.id(), p.flow(), p.size(),
                    type.code() & 0xff | (direction & 0xff) << 8 | (cause.code() & 0xff) << 16 | (path & 0xff) << 24,
                    queuePackets);
            return;
        }
        file.ensure(EventLogFormat.RECORD_BYTES);
        buf.putLong(time).putLong(p.id()).putInt(p.flow()).putInt(p.size()).put((byte) type.code())
                .put((byte) direction).put((byte) cause.code()).put((byte) path).putInt(queuePackets);
    }

    /** Records what a flow id stands for (e.g. its 5-tuple). */
    public void describeFlow(int flow, long time, String description) {
        byte[] text = description.getBytes(StandardCharsets.UTF_8);
        if (writer != null) {
            room(EventLogFormat.RECORD_BYTES + text.length).addFlow(time, flow, text);
            return;
        }
        file.ensure(EventLogFormat.RECORD_BYTES + text.length);
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
        } else if (words.bytes > 0) {
            words = null;
            words = writer.handOver();
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

    /**
     * A batch of records as the file's little-endian words, four per record: time; packet id; flow | size << 32; type |
     * direction << 8 | cause << 16 | path << 24 | queue << 32. A FLOW record's text is kept aside with the word index
     * its record ends at. At most {@value #BUFFER_BYTES} bytes of records.
     */
    static final class Words {
        final long[] words = new long[BUFFER_BYTES / 8];
        /** Words used. */
        int used;
        /** Bytes of records: the words' and the texts'. */
        int bytes;
        byte[][] texts = new byte[4][];
        /** Where each text goes: after the word at this index. */
        int[] textAt = new int[4];
        int textCount;

        void add(long time, long id, int flow, int size, int typeDirectionCausePath, int queue) {
            int i = used;
            long[] w = words;
            w[i] = time;
            w[i + 1] = id;
            w[i + 2] = flow & 0xffffffffL | (long) size << 32;
            w[i + 3] = typeDirectionCausePath & 0xffffffffL | (long) queue << 32;
            used = i + 4;
            bytes += EventLogFormat.RECORD_BYTES;
        }

        void addFlow(long time, int flow, byte[] text) {
            add(time, 0, flow, text.length, EventLogFormat.TYPE_FLOW, 0);
            if (textCount == texts.length) {
                texts = java.util.Arrays.copyOf(texts, textCount * 2);
                textAt = java.util.Arrays.copyOf(textAt, textCount * 2);
            }
            texts[textCount] = text;
            textAt[textCount++] = used;
            bytes += text.length;
        }

        /**
         * Writes the records through the file's buffer (whole records in each of its blocks) and flushes it, on the
         * writer's thread.
         */
        void writeTo(BlockFile file) {
            ByteBuffer b = file.buffer();
            int from = 0;
            for (int t = 0; t <= textCount; t++) {
                int to = t < textCount ? textAt[t] : used;
                byte[] text = t < textCount ? texts[t] : null;
                // the words up to this text's record, then its record with the text: each part whole in the buffer
                int plain = text == null ? to : to - 4;
                if (plain > from) {
                    put(file, b, from, plain);
                }
                if (text != null) {
                    file.ensure(EventLogFormat.RECORD_BYTES + text.length);
                    b.asLongBuffer().put(words, plain, 4);
                    b.position(b.position() + EventLogFormat.RECORD_BYTES);
                    b.put(text);
                }
                from = to;
            }
            file.flush();
        }

        private void put(BlockFile file, ByteBuffer b, int from, int to) {
            int n = to - from;
            file.ensure(n * 8);
            b.asLongBuffer().put(words, from, n);
            b.position(b.position() + n * 8);
        }

        void clear() {
            java.util.Arrays.fill(texts, 0, textCount, null);
            used = 0;
            bytes = 0;
            textCount = 0;
        }
    }
}
