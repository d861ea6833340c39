package org.pacelab.analysis.table;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes the per-packet table (one row per captured datagram or segment of the server's flow, both directions).
 * A server row's train length is known only when its train ends, so rows are held back (in one reused buffer)
 * until then; a train longer than the buffer's limit spills its rows to a temporary file, so memory stays bounded
 * whatever the train length. Columns, in order: {@link #HEADER}. Empty cells mean "does not apply or unknown".
 */
public final class PacketCsvWriter {
    public static final String HEADER = "frame,time_ns,dir,bytes,packet_types,packet_numbers,ipg_ns,train,train_length,"
            + "retransmission,send_delay_ns,target_gap_ns";
    public static final long NONE = Long.MIN_VALUE;
    static final int DEFAULT_LIMIT = 8 << 20;
    /** Stands for a train length not yet known in spilled rows (never occurs in CSV text otherwise). */
    private static final char MARK = '\u0001';

    private final Writer out;
    private final StringBuilder pending = new StringBuilder(1 << 16);
    private int[] placeholders = new int[256];
    private char[] chars = new char[1 << 16];
    private int placeholderCount;
    private final int limit;
    private Path spillFile;
    private Writer spill;

    public PacketCsvWriter(Writer out) throws IOException {
        this(out, DEFAULT_LIMIT);
    }

    /** {@code limit}: characters held in memory before rows spill to a temporary file. */
    PacketCsvWriter(Writer out, int limit) throws IOException {
        this.out = out;
        this.limit = limit;
        out.write(HEADER);
        out.write('\n');
    }

    /** A client-to-server row. */
    public void clientRow(long frame, long timeNs, int bytes, CharSequence types, CharSequence numbers) throws IOException {
        StringBuilder sb = pending;
        sb.append(frame).append(',').append(timeNs).append(",c2s,").append(bytes).append(',');
        sb.append(types).append(',').append(numbers).append(",,,,,,\n");
        if (placeholderCount > 0 || spill != null) {
            if (sb.length() > limit) {
                spillPending();
            }
        } else {
            flushIfNoTrainOpen();
        }
    }

    /**
     * A server-to-client row; its train length is filled in by {@link #trainEnded}.
     *
     * @param ipgNs          gap to the previous server packet, or {@link #NONE} for the first
     * @param retransmission 1 or 0 for TCP, -1 for QUIC (not known from the wire)
     * @param sendDelayNs    wire time − intended send time, or {@link #NONE}
     * @param targetGapNs    size / pacing rate, or {@link #NONE}
     */
    public void serverRow(long frame, long timeNs, int bytes, CharSequence types, CharSequence numbers, long ipgNs, long train,
                          int retransmission, long sendDelayNs, long targetGapNs) {
        StringBuilder sb = pending;
        sb.append(frame).append(',').append(timeNs).append(",s2c,").append(bytes).append(',');
        sb.append(types).append(',').append(numbers).append(',');
        if (ipgNs != NONE) {
            sb.append(ipgNs);
        }
        sb.append(',').append(train).append(',');
        if (placeholderCount == placeholders.length) {
            placeholders = Arrays.copyOf(placeholders, placeholderCount * 2);
        }
        placeholders[placeholderCount++] = sb.length();
        sb.append(',');
        if (retransmission >= 0) {
            sb.append(retransmission);
        }
        sb.append(',');
        if (sendDelayNs != NONE) {
            sb.append(sendDelayNs);
        }
        sb.append(',');
        if (targetGapNs != NONE) {
            sb.append(targetGapNs);
        }
        sb.append('\n');
        if (sb.length() > limit) {
            spillPending();
        }
    }

    /** Moves the held rows to the spill file, with {@link #MARK} where the train length goes. */
    private void spillPending() {
        try {
            if (spill == null) {
                spillFile = Files.createTempFile("pacelab-train", ".csv.part");
                spill = Files.newBufferedWriter(spillFile, StandardCharsets.UTF_8);
            }
            int from = 0;
            for (int i = 0; i < placeholderCount; i++) {
                write(spill, from, placeholders[i]);
                spill.write(MARK);
                from = placeholders[i];
            }
            write(spill, from, pending.length());
            pending.setLength(0);
            placeholderCount = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill a long packet train to a temporary file", e);
        }
    }

    /** Copies the spill file to the output with the train length in place of each mark, then deletes it. */
    private void drainSpill(String len) throws IOException {
        spill.close();
        try (Reader r = Files.newBufferedReader(spillFile, StandardCharsets.UTF_8)) {
            int n;
            while ((n = r.read(chars, 0, chars.length)) > 0) {
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (chars[i] == MARK) {
                        out.write(chars, from, i - from);
                        out.write(len);
                        from = i + 1;
                    }
                }
                out.write(chars, from, n - from);
            }
        } finally {
            spill = null;
            Files.deleteIfExists(spillFile);
            spillFile = null;
        }
    }

    /** The open train has ended with {@code length} packets: its rows are written. */
    public void trainEnded(long train, int length) throws IOException {
        String len = Integer.toString(length);
        if (spill != null) {
            drainSpill(len);
        }
        int from = 0;
        for (int i = 0; i < placeholderCount; i++) {
            int at = placeholders[i];
            write(from, at);
            out.write(len);
            from = at;
        }
        write(from, pending.length());
        pending.setLength(0);
        placeholderCount = 0;
    }

    /** Writes pending[from, to) through a reused char array (Writer.append would copy into a new String). */
    private void write(int from, int to) throws IOException {
        write(out, from, to);
    }

    private void write(Writer w, int from, int to) throws IOException {
        while (from < to) {
            int n = Math.min(chars.length, to - from);
            pending.getChars(from, from + n, chars, 0);
            w.write(chars, 0, n);
            from += n;
        }
    }

    private void flushIfNoTrainOpen() throws IOException {
        if (placeholderCount == 0 && spill == null && pending.length() > (1 << 15)) {
            write(0, pending.length());
            pending.setLength(0);
        }
    }

    /** Writes what is left (call after the last train ended). */
    public void finish() throws IOException {
        if (placeholderCount != 0 || spill != null) {
            throw new IllegalStateException("rows still wait for their train to end");
        }
        write(0, pending.length());
        pending.setLength(0);
        out.flush();
    }
}
