package org.pacelab.analysis.table;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * Writes the per-packet table (one row per captured datagram or segment of the server's flow, both directions).
 * A server row's train length is known only when its train ends, so rows are held back (in one reused buffer)
 * until then. Columns, in order: {@link #HEADER}. Empty cells mean "does not apply or unknown".
 */
public final class PacketCsvWriter {
    public static final String HEADER = "frame,time_ns,dir,bytes,packet_types,packet_numbers,ipg_ns,train,train_length,"
            + "retransmission,send_delay_ns,target_gap_ns";
    public static final long NONE = Long.MIN_VALUE;

    private final Writer out;
    private final StringBuilder pending = new StringBuilder(1 << 16);
    private int[] placeholders = new int[256];
    private int placeholderCount;

    public PacketCsvWriter(Writer out) throws IOException {
        this.out = out;
        out.write(HEADER);
        out.write('\n');
    }

    /** A client-to-server row. */
    public void clientRow(long frame, long timeNs, int bytes, CharSequence types, CharSequence numbers) throws IOException {
        StringBuilder sb = pending;
        sb.append(frame).append(',').append(timeNs).append(",c2s,").append(bytes).append(',');
        sb.append(types).append(',').append(numbers).append(",,,,,,\n");
        flushIfNoTrainOpen();
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
    }

    /** The open train has ended with {@code length} packets: its rows are written. */
    public void trainEnded(long train, int length) throws IOException {
        String len = Integer.toString(length);
        int from = 0;
        for (int i = 0; i < placeholderCount; i++) {
            int at = placeholders[i];
            out.append(pending, from, at);
            out.write(len);
            from = at;
        }
        out.append(pending, from, pending.length());
        pending.setLength(0);
        placeholderCount = 0;
    }

    private void flushIfNoTrainOpen() throws IOException {
        if (placeholderCount == 0 && pending.length() > (1 << 15)) {
            out.append(pending);
            pending.setLength(0);
        }
    }

    /** Writes what is left (call after the last train ended). */
    public void finish() throws IOException {
        if (placeholderCount != 0) {
            throw new IllegalStateException(placeholderCount + " rows still wait for their train to end");
        }
        out.append(pending);
        pending.setLength(0);
        out.flush();
    }
}
