package org.pacelab.analysis;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads what the emulated bottleneck did on the way from server to client from the emulator's event log (the
 * {@code PLEVLOG1} format of module net: a 32-byte header whose bytes 16-23 hold the wall clock of model time 0 in
 * ns; then 32-byte little-endian records: i64 model time, i64 packet id, i32 flow, i32 size (IP bytes), u8 type
 * (1 ARRIVAL, 5 DROP, 6 DELIVER, 16 FLOW), u8 direction (0 down, i.e. server to client), ...; a FLOW record is
 * followed by {@code size} bytes of text).
 *
 * <p>Drops are counted as a whole, grouped into loss episodes (a drop more than {@link #EPISODE_GAP_NS} after the
 * previous one starts a new episode) and split at a moment (the end of the sender's slow start): a drop happens when
 * the packet reaches the bottleneck's queue, right after it left the server, so its time is the packet's. Delivered
 * bytes are counted as a whole and over a window from the first downlink packet's arrival.
 */
final class EmulatorLog {
    private static final byte[] MAGIC = {'P', 'L', 'E', 'V', 'L', 'O', 'G', '1'};
    private static final int HEADER = 32;
    private static final int RECORD = 32;
    private static final int ARRIVAL = 1;
    private static final int DROP = 5;
    private static final int DELIVER = 6;
    private static final int FLOW = 16;
    private static final int DOWN = 0;

    /** A drop more than this long after the previous one starts a new loss episode. */
    static final long EPISODE_GAP_NS = 500_000_000L;

    /**
     * The downlink's counts.
     *
     * @param drops            packets dropped
     * @param episodes         loss episodes
     * @param firstEpisode     drops of the first episode (0 when there was none)
     * @param largestEpisode   drops of the largest episode (0 when there was none)
     * @param dropsBeforeSplit packets dropped at or before the split moment (0 without one)
     * @param deliveredBytes   IP bytes delivered to the client
     * @param windowBytes      IP bytes delivered within the window after the first arrival
     * @param spanNs           from the first arrival to the last delivery, ns (0 without deliveries)
     * @param note             a sentence when the log ended inside a record, else null
     */
    record Counts(long drops, long episodes, long firstEpisode, long largestEpisode, long dropsBeforeSplit,
                  long deliveredBytes, long windowBytes, long spanNs, String note) {}

    private EmulatorLog() {}

    /** The downlink's drops, without a split or window. */
    static Counts count(Path file) throws IOException {
        return read(file, Long.MIN_VALUE, 0);
    }

    /**
     * @param splitEpochNs drops at or before this moment (ns since the epoch) count in {@code dropsBeforeSplit}
     * @param windowNs     length of the delivery window after the first downlink arrival
     */
    static Counts read(Path file, long splitEpochNs, long windowNs) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            byte[] header = in.readNBytes(HEADER);
            if (header.length < HEADER || !Arrays.equals(Arrays.copyOf(header, 8), MAGIC)) {
                throw new IOException(file + " at byte offset 0: not a pacelab emulator event log (expected the magic "
                        + "PLEVLOG1 and a 32-byte header)");
            }
            ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
            int version = h.getShort(8) & 0xffff;
            int recordSize = h.getShort(10) & 0xffff;
            if (version != 1 || recordSize != RECORD) {
                throw new IOException(file + " at byte offset 8: event log version " + version + " with " + recordSize
                        + "-byte records is not supported (version 1, 32-byte records)");
            }
            long wallAtZero = h.getLong(16);
            byte[] rec = new byte[RECORD];
            ByteBuffer r = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
            long offset = HEADER;
            Tally t = new Tally(splitEpochNs, windowNs);
            while (true) {
                int n = in.readNBytes(rec, 0, RECORD);
                if (n == 0) {
                    return t.counts(null);
                }
                if (n < RECORD) {
                    return t.counts(file.getFileName() + " ends inside a record at byte offset " + offset
                            + "; the events before it are counted");
                }
                int type = rec[24] & 0xff;
                if (type == FLOW) {
                    int textLength = r.getInt(20);
                    if (textLength < 0 || in.readNBytes(textLength).length < textLength) {
                        return t.counts(file.getFileName() + " ends inside a flow description at byte offset "
                                + (offset + RECORD) + "; the events before it are counted");
                    }
                    offset += textLength;
                } else if ((rec[25] & 0xff) == DOWN) {
                    t.add(type, wallAtZero + r.getLong(0), r.getInt(20));
                }
                offset += RECORD;
            }
        }
    }

    private static final class Tally {
        final long split;
        final long window;
        long drops;
        long episodes;
        long firstEpisode;
        long largestEpisode;
        long currentEpisode;
        long lastDrop = Long.MIN_VALUE;
        long dropsBefore;
        long delivered;
        long inWindow;
        long firstArrival = Long.MIN_VALUE;
        long lastDelivery = Long.MIN_VALUE;

        Tally(long split, long window) {
            this.split = split;
            this.window = window;
        }

        void add(int type, long epochNs, int size) {
            switch (type) {
                case ARRIVAL -> {
                    if (firstArrival == Long.MIN_VALUE) {
                        firstArrival = epochNs;
                    }
                }
                case DROP -> {
                    drops++;
                    if (episodes == 0 || epochNs - lastDrop > EPISODE_GAP_NS) {
                        episodes++;
                        currentEpisode = 0;
                    }
                    currentEpisode++;
                    if (episodes == 1) {
                        firstEpisode = currentEpisode;
                    }
                    largestEpisode = Math.max(largestEpisode, currentEpisode);
                    lastDrop = epochNs;
                    if (split != Long.MIN_VALUE && epochNs <= split) {
                        dropsBefore++;
                    }
                }
                case DELIVER -> {
                    delivered += size;
                    lastDelivery = epochNs;
                    if (firstArrival != Long.MIN_VALUE && epochNs - firstArrival < window) {
                        inWindow += size;
                    }
                }
                default -> { }
            }
        }

        Counts counts(String note) {
            long span = firstArrival == Long.MIN_VALUE || lastDelivery == Long.MIN_VALUE ? 0 : lastDelivery - firstArrival;
            return new Counts(drops, episodes, firstEpisode, largestEpisode, dropsBefore, delivered, inWindow, span, note);
        }
    }
}
