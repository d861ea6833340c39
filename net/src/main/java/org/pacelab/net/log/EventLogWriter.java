package org.pacelab.net.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
    private final Path target;
    private final Path part;
    private final FileChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 18).order(ByteOrder.LITTLE_ENDIAN);
    private boolean closed;

    public EventLogWriter(Path target, long epochNanosOfTimeZero, long seed) throws IOException {
        this.target = target;
        this.part = target.resolveSibling(target.getFileName() + ".part");
        this.channel = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
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

    private void ensure(int n) {
        if (buf.remaining() < n) flush();
    }

    /** Writes buffered records to the file (whole records only). */
    public void flush() {
        try {
            buf.flip();
            while (buf.hasRemaining()) channel.write(buf);
            buf.clear();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write event log " + part, e);
        }
    }

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
