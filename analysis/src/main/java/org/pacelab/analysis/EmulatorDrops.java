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
 * Counts the packets the emulated bottleneck dropped on the way from server to client, from the emulator's event
 * log (the {@code PLEVLOG1} format of module net: a 32-byte header, then 32-byte little-endian records; type 5 is
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

    /** Drops, and a note when the log ended inside a record. */
    record Count(long drops, String note) {}

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
            long drops = 0;
            while (true) {
                int n = in.readNBytes(rec, 0, RECORD);
                if (n == 0) {
                    return new Count(drops, null);
                }
                if (n < RECORD) {
                    return new Count(drops, file.getFileName() + " ends inside a record at byte offset " + offset
                            + "; the events before it are counted");
                }
                int type = rec[24] & 0xff;
                if (type == DROP && (rec[25] & 0xff) == DOWN) {
                    drops++;
                } else if (type == FLOW) {
                    int textLength = r.getInt(20);
                    if (textLength < 0 || in.readNBytes(textLength).length < textLength) {
                        return new Count(drops, file.getFileName() + " ends inside a flow description at byte offset "
                                + (offset + RECORD) + "; the events before it are counted");
                    }
                    offset += textLength;
                }
                offset += RECORD;
            }
        }
    }
}
