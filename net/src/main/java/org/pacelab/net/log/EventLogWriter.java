package org.pacelab.net.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.pacelab.net.file.BlockFile;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;

/**
 * Writes the event log ({@link EventLogFormat}) to {@code FILE.part} and renames it to {@code FILE} on close, so
 * a finished log is never partial; after a crash the {@code .part} file is readable up to its last whole record.
 * Single-threaded: call it from the thread that drives the model.
 */
public final class EventLogWriter implements LinkObserver, AutoCloseable {
    private final BlockFile file;
    private final ByteBuffer buf;

    public EventLogWriter(Path target, long epochNanosOfTimeZero, long seed) throws IOException {
        this.file = new BlockFile(target, 1 << 18, ByteOrder.LITTLE_ENDIAN, "event log");
        this.buf = file.buffer();
        buf.put(EventLogFormat.MAGIC).putShort((short) EventLogFormat.VERSION)
                .putShort((short) EventLogFormat.RECORD_BYTES).putInt(0).putLong(epochNanosOfTimeZero).putLong(seed);
        flush();
    }

    @Override
    public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int queuePackets) {
        onPathEvent(type, direction, 0, p, time, cause, queuePackets);
    }

    @Override
    public void onPathEvent(EventType type, int direction, int path, Packet p, long time, DropCause cause, int queuePackets) {
        file.ensure(EventLogFormat.RECORD_BYTES);
        buf.putLong(time).putLong(p.id()).putInt(p.flow()).putInt(p.size()).put((byte) type.code())
                .put((byte) direction).put((byte) cause.code()).put((byte) path).putInt(queuePackets);
    }

    /** Records what a flow id stands for (e.g. its 5-tuple). */
    public void describeFlow(int flow, long time, String description) {
        byte[] text = description.getBytes(StandardCharsets.UTF_8);
        file.ensure(EventLogFormat.RECORD_BYTES + text.length);
        buf.putLong(time).putLong(0).putInt(flow).putInt(text.length).put((byte) EventLogFormat.TYPE_FLOW)
                .put((byte) 0).put((byte) 0).put((byte) 0).putInt(0).put(text);
    }

    /** Writes buffered records to the file (whole records only). */
    public void flush() { file.flush(); }

    /** Syncs the written part of the file in the background every {@code everyBytes} ({@link BlockFile#syncAhead}). */
    public void syncAhead(long everyBytes) { file.syncAhead(everyBytes); }

    public Path path() { return file.path(); }

    /** Closes and deletes the partial file (the run never started). */
    public void discard() { file.discard(); }

    @Override
    public void close() throws IOException { file.close(); }
}
