package org.pacelab.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

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
        return tally(file, windowNs).counts(splitEpochNs);
    }

    /** The log's tally with a window of {@code windowNs}: its counts for any split moment. */
    private static Tally tally(Path file, long windowNs) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Chunks c = new Chunks(in);
            byte[] header = Arrays.copyOfRange(c.buf, c.pos, c.pos + c.fill(HEADER));
            if (header.length < HEADER || !Arrays.equals(Arrays.copyOf(header, 8), MAGIC)) {
                throw new IOException(file + " at byte offset 0: not a pacelab emulator event log (expected the magic "
                        + "PLEVLOG1 and a 32-byte header)");
            }
            c.pos += HEADER;
            ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
            int version = h.getShort(8) & 0xffff;
            int recordSize = h.getShort(10) & 0xffff;
            if (version != 1 || recordSize != RECORD) {
                throw new IOException(file + " at byte offset 8: event log version " + version + " with " + recordSize
                        + "-byte records is not supported (version 1, 32-byte records)");
            }
            long wallAtZero = h.getLong(16);
            long offset = HEADER;
            Tally t = new Tally(windowNs);
            while (true) {
                int n = c.fill(RECORD);
                if (n == 0) {
                    return t;
                }
                if (n < RECORD) {
                    return t.ended(file.getFileName() + " ends inside a record at byte offset " + offset
                            + "; the events before it are counted");
                }
                int at = c.pos;
                c.pos += RECORD;
                if (t.record(c.buf, at, wallAtZero)) {
                    int textLength = le32(c.buf, at + 20);
                    if (textLength < 0 || c.skip(textLength) < textLength) {
                        return t.ended(file.getFileName() + " ends inside a flow description at byte offset "
                                + (offset + RECORD) + "; the events before it are counted");
                    }
                    offset += textLength;
                }
                offset += RECORD;
            }
        }
    }

    /**
     * The little-endian int at {@code b[at]}. Shifts in a small method rather than a VarHandle or a ByteBuffer: the
     * loop of {@link #read} runs interpreted until it is compiled on the stack, and a VarHandle's call there is slow.
     */
    static int le32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | b[at + 3] << 24;
    }

    /** The little-endian long at {@code b[at]}. */
    static long le64(byte[] b, int at) {
        return le32(b, at) & 0xffffffffL | (long) le32(b, at + 4) << 32;
    }

    /**
     * The file read in 64 KiB chunks, each record's fields read where they lie in the chunk: a 100 MiB simulated run's
     * log has 536,000 records, and reading each through {@code BufferedInputStream.readNBytes} into a record array
     * took ~1.3 % of the simulator's main thread in C1-compiled code (docs/benchmarks.md, issue 14, fourth sitting).
     */
    private static final class Chunks {
        final InputStream in;
        final byte[] buf = new byte[1 << 16];
        /** The next unread byte in {@link #buf}. */
        int pos;
        /** The end of what {@link #buf} holds. */
        int lim;

        Chunks(InputStream in) {
            this.in = in;
        }

        /** Makes {@code n} (at most the buffer's size) bytes readable at {@link #pos}, fewer at the end of the file; their count. */
        int fill(int n) throws IOException {
            if (lim - pos < n) {
                System.arraycopy(buf, pos, buf, 0, lim - pos);
                lim -= pos;
                pos = 0;
                while (lim < n) {
                    int r = in.read(buf, lim, buf.length - lim);
                    if (r < 0) {
                        break;
                    }
                    lim += r;
                }
            }
            return Math.min(n, lim - pos);
        }

        /** Skips {@code n} bytes, fewer at the end of the file; how many were skipped. */
        long skip(int n) throws IOException {
            long skipped = 0;
            while (true) {
                int k = (int) Math.min(n - skipped, lim - pos);
                pos += k;
                skipped += k;
                if (skipped == n) {
                    return skipped;
                }
                pos = 0;
                lim = 0;
                int r = in.read(buf, 0, buf.length);
                if (r < 0) {
                    return skipped;
                }
                lim = r;
            }
        }
    }

    private static final class Tally {
        final long window;
        long drops;
        long episodes;
        long firstEpisode;
        long largestEpisode;
        long currentEpisode;
        long lastDrop = Long.MIN_VALUE;
        /** Every downlink drop's time, so that the drops before any split moment can be counted afterwards. */
        long[] dropTimes = new long[16];
        long delivered;
        long inWindow;
        long firstArrival = Long.MIN_VALUE;
        long lastDelivery = Long.MIN_VALUE;
        String note;

        Tally(long window) {
            this.window = window;
        }

        Tally ended(String note) {
            this.note = note;
            return this;
        }

        /**
         * Counts the record at {@code b[at]} if it is of the downlink; true when it is a FLOW record (its text follows).
         * A method of its own, compiled after a few hundred records, so that little of each record's work is done
         * in {@link #read}'s loop, interpreted until it is compiled on the stack.
         */
        boolean record(byte[] b, int at, long wallAtZero) {
            int type = b[at + 24] & 0xff;
            if (type == FLOW) {
                return true;
            }
            if ((b[at + 25] & 0xff) == DOWN) {
                add(type, wallAtZero + le64(b, at), le32(b, at + 20));
            }
            return false;
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
                    if (drops > dropTimes.length) {
                        dropTimes = Arrays.copyOf(dropTimes, dropTimes.length * 2);
                    }
                    dropTimes[(int) drops - 1] = epochNs;
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

        /** The counts with drops at or before {@code split} (ns since the epoch; {@code Long.MIN_VALUE}: none) apart. */
        Counts counts(long split) {
            long dropsBefore = 0;
            if (split != Long.MIN_VALUE) {
                for (int i = 0; i < drops; i++) {
                    if (dropTimes[i] <= split) {
                        dropsBefore++;
                    }
                }
            }
            long span = firstArrival == Long.MIN_VALUE || lastDelivery == Long.MIN_VALUE ? 0 : lastDelivery - firstArrival;
            return new Counts(drops, episodes, firstEpisode, largestEpisode, dropsBefore, delivered, inWindow, span, note);
        }
    }

    /**
     * A log read on a thread of its own ({@code event-log-reader}) while the analysis does other work: a simulated
     * run's analysis starts it when the log is complete, beside its replay of the held rows, so that the summary's
     * drop counts do not read the 17 MB of a 100 MiB run's log after them on the analysis's thread (~40 ms there in a
     * JFR profile; docs/benchmarks.md, issue 14, fourth sitting). Its counts are {@link #read}'s for the same file
     * and window, whatever the split; when it failed, the caller reads the file itself and gets the error as before.
     */
    static final class Ahead {
        private final Path file;
        private final long window;
        private final CompletableFuture<Tally> tally = new CompletableFuture<>();

        private Ahead(Path file, long window) {
            this.file = file;
            this.window = window;
        }

        /** Starts reading {@code file} with a window of {@code windowNs}. */
        static Ahead start(Path file, long windowNs) {
            Ahead a = new Ahead(file, windowNs);
            Thread.ofPlatform().name("event-log-reader").daemon().start(() -> {
                try {
                    a.tally.complete(tally(file, windowNs));
                } catch (Throwable e) {
                    a.tally.completeExceptionally(e);
                }
            });
            return a;
        }

        /**
         * What {@link #read}{@code (file, split, windowNs)} returns, once the read is done; null when this read another
         * file or window or failed (the caller reads the file and gets its error).
         */
        Counts counts(Path file, long split, long windowNs) {
            if (!file.equals(this.file) || windowNs != window) {
                return null;
            }
            try {
                return tally.get().counts(split);
            } catch (ExecutionException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }
}
