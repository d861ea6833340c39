package org.pacelab.net.log;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;

/** Reads an event log ({@link EventLogFormat}); errors name the file and byte offset. */
public final class EventLogReader {
    private EventLogReader() {}

    /** What the header says, the flows described, and whether the file was cut short. */
    public record Result(long epochNanosOfTimeZero, long seed, long records, Map<Integer, String> flows,
                         int truncatedBytes) { }

    public static Result read(Path file, Consumer<LogEvent> sink) throws IOException, EventLogFormatException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return read(file.toString(), in, sink);
        }
    }

    public static Result read(String name, InputStream raw, Consumer<LogEvent> sink) throws IOException, EventLogFormatException {
        DataInputStream in = new DataInputStream(raw);
        byte[] header = new byte[EventLogFormat.HEADER_BYTES];
        int got = in.readNBytes(header, 0, header.length);
        if (got < header.length) {
            throw new EventLogFormatException(name + ": " + got + " bytes is too short for an event log header ("
                    + EventLogFormat.HEADER_BYTES + " bytes)");
        }
        if (!Arrays.equals(Arrays.copyOf(header, 8), EventLogFormat.MAGIC)) {
            throw new EventLogFormatException(name + ": byte offset 0: not a pacelab event log (magic is not PLEVLOG1)");
        }
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int version = h.getShort(8) & 0xffff, recordSize = h.getShort(10) & 0xffff;
        if (version != EventLogFormat.VERSION || recordSize != EventLogFormat.RECORD_BYTES) {
            throw new EventLogFormatException(name + ": byte offset 8: event log version " + version + " with "
                    + recordSize + "-byte records is not supported (only version 1, 32-byte records)");
        }
        long epoch = h.getLong(16), seed = h.getLong(24);
        Map<Integer, String> flows = new TreeMap<>();
        byte[] rec = new byte[EventLogFormat.RECORD_BYTES];
        ByteBuffer r = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
        long offset = EventLogFormat.HEADER_BYTES;
        long records = 0;
        while (true) {
            int n = in.readNBytes(rec, 0, rec.length);
            if (n == 0) return new Result(epoch, seed, records, flows, 0);
            if (n < rec.length) return new Result(epoch, seed, records, flows, n);
            long time = r.getLong(0), id = r.getLong(8);
            int flow = r.getInt(16), size = r.getInt(20);
            int typeCode = rec[24] & 0xff, dir = rec[25] & 0xff, causeCode = rec[26] & 0xff, path = rec[27] & 0xff;
            int queue = r.getInt(28);
            if (typeCode == EventLogFormat.TYPE_FLOW) {
                if (size < 0 || size > 65536) {
                    throw new EventLogFormatException(name + ": byte offset " + offset + ": flow description length "
                            + size + " is not between 0 and 65536");
                }
                byte[] text = new byte[size];
                int t = in.readNBytes(text, 0, size);
                if (t < size) return new Result(epoch, seed, records, flows, n + t);
                flows.put(flow, new String(text, StandardCharsets.UTF_8));
                offset += rec.length + size;
                continue;
            }
            EventType type = EventType.ofCode(typeCode);
            Direction direction = Direction.ofIndex(dir);
            DropCause cause = DropCause.ofCode(causeCode);
            if (type == null || direction == null || cause == null) {
                throw new EventLogFormatException(name + ": byte offset " + offset + ": record has type " + typeCode
                        + ", direction " + dir + ", cause " + causeCode + "; valid are types 1-12 and 16, directions 0-1, "
                        + "causes 0-8");
            }
            sink.accept(new LogEvent(time, id, flow, size, type, direction, cause, path, queue));
            records++;
            offset += rec.length;
        }
    }

    /** Counts events per direction, type and drop cause. */
    public static EventLogSummary summarize(Path file) throws IOException, EventLogFormatException {
        EventLogSummary s = new EventLogSummary();
        Result r = read(file, s::add);
        s.truncatedBytes = r.truncatedBytes();
        s.flows.putAll(r.flows());
        return s;
    }

    /** Thrown for files that are not event logs, or are corrupt before their end. */
    public static final class EventLogFormatException extends Exception {
        public EventLogFormatException(String message) { super(message); }
    }
}
