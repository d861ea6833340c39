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
 * Counts the packets the emulated bottleneck dropped on the way from server to client, and groups them into loss
 * episodes (a drop more than {@link #EPISODE_GAP_NS} after the previous one starts a new episode), from the emulator's
 * event log (the {@code PLEVLOG1} format of module net: a 32-byte header, then 32-byte little-endian records; type 5 is
 * DROP, direction 0 is down, i.e. server to client; a FLOW record (type 16) is followed by {@code size} bytes of
 * text).
 */
final class EmulatorDrops {
    private static final byte[] MAGIC = {'P', 'L', 'E', 'V', 'L', 'O', 'G', '1'};
    private static final int HEADER = 32;
    private static final int RECORD = 32;
    private static final int DROP = 5;
    private static final int FLOW = 16;
    private static final int DOWN = 0;

    /** A drop more than this long after the previous one starts a new loss episode. */
    static final long EPISODE_GAP_NS = 500_000_000L;

    /**
     * Drops, their episodes, and a note when the log ended inside a record.
     *
     * @param firstEpisode drops of the first episode (0 when there was none)
     * @param largestEpisode drops of the largest episode (0 when there was none)
     */
    record Count(long drops, long episodes, long firstEpisode, long largestEpisode, String note) {}

    /** Folds drop times (in log order) into episodes. */
    private static final class Episodes {
        long drops;
        long episodes;
        long first;
        long largest;
        long current;
        long lastTime = Long.MIN_VALUE;

        void drop(long timeNs) {
            drops++;
            if (episodes == 0 || timeNs - lastTime > EPISODE_GAP_NS) {
                episodes++;
                current = 0;
            }
            current++;
            if (episodes == 1) {
                first = current;
            }
            largest = Math.max(largest, current);
            lastTime = timeNs;
        }

        Count count(String note) {
            return new Count(drops, episodes, first, largest, note);
        }
    }

    private EmulatorDrops() {}

    static Count count(Path file) throws IOException {
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
            byte[] rec = new byte[RECORD];
            ByteBuffer r = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
            long offset = HEADER;
            Episodes drops = new Episodes();
            while (true) {
                int n = in.readNBytes(rec, 0, RECORD);
                if (n == 0) {
                    return drops.count(null);
                }
                if (n < RECORD) {
                    return drops.count(file.getFileName() + " ends inside a record at byte offset " + offset
                            + "; the events before it are counted");
                }
                int type = rec[24] & 0xff;
                if (type == DROP && (rec[25] & 0xff) == DOWN) {
                    drops.drop(r.getLong(0));
                } else if (type == FLOW) {
                    int textLength = r.getInt(20);
                    if (textLength < 0 || in.readNBytes(textLength).length < textLength) {
                        return drops.count(file.getFileName() + " ends inside a flow description at byte offset "
                                + (offset + RECORD) + "; the events before it are counted");
                    }
                    offset += textLength;
                }
                offset += RECORD;
            }
        }
    }
}
