package org.pacelab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmulatorLogTest {
    @TempDir
    Path dir;

    /** A log in module net's documented PLEVLOG1 layout. */
    private static byte[] log(int[][] typeDirection, String flowText) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        h.put("PLEVLOG1".getBytes(StandardCharsets.US_ASCII)).putShort((short) 1).putShort((short) 32).putInt(0).putLong(0).putLong(7);
        o.writeBytes(h.array());
        byte[] text = flowText.getBytes(StandardCharsets.UTF_8);
        ByteBuffer flow = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        flow.putLong(0).putLong(0).putInt(1).putInt(text.length).put((byte) 16).put((byte) 0).put((byte) 0).put((byte) 0).putInt(0);
        o.writeBytes(flow.array());
        o.writeBytes(text);
        long t = 0;
        for (int[] td : typeDirection) {
            ByteBuffer r = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
            r.putLong(t++).putLong(t).putInt(1).putInt(1252).put((byte) td[0]).put((byte) td[1]).put((byte) (td[0] == 5 ? 2 : 0))
                    .put((byte) 0).putInt(3);
            o.writeBytes(r.array());
        }
        return o.toByteArray();
    }

    @Test
    void countsDownstreamDropsOnly() throws IOException {
        byte[] b = log(new int[][] {{1, 0}, {5, 0}, {5, 1}, {3, 0}, {5, 0}, {6, 0}}, "udp 127.0.0.1:4433 127.0.0.1:50312");
        Path f = Files.write(dir.resolve("events.bin"), b);
        EmulatorLog.Counts c = EmulatorLog.count(f);
        assertEquals(2, c.drops());
        assertEquals(1, c.episodes(), "drops nanoseconds apart are one loss episode");
        assertEquals(2, c.firstEpisode());
        assertEquals(2, c.largestEpisode());
        assertNull(c.note());
        Path cut = Files.write(dir.resolve("cut.bin"), Arrays.copyOf(b, b.length - 5));
        EmulatorLog.Counts partial = EmulatorLog.count(cut);
        assertEquals(2, partial.drops());
        assertTrue(partial.note().contains("ends inside a record"), partial.note());
    }

    /** Records of (model time ns, type, direction, IP bytes), with the wall clock of model time 0 in the header. */
    private static byte[] timedLog(long wallAtZero, long[][] records) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        h.put("PLEVLOG1".getBytes(StandardCharsets.US_ASCII)).putShort((short) 1).putShort((short) 32).putInt(0)
                .putLong(wallAtZero).putLong(7);
        o.writeBytes(h.array());
        long id = 0;
        for (long[] rec : records) {
            ByteBuffer r = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
            r.putLong(rec[0]).putLong(id++).putInt(1).putInt((int) rec[3]).put((byte) rec[1]).put((byte) rec[2])
                    .put((byte) 0).put((byte) 0).putInt(0);
            o.writeBytes(r.array());
        }
        return o.toByteArray();
    }

    @Test
    void splitsDropsAtAMomentAndCountsDeliveriesOfTheFirstSeconds() throws IOException {
        long wall = 1_000_000_000_000L;
        long s = 1_000_000_000L;
        byte[] b = timedLog(wall, new long[][] {
                {0, 1, 0, 1000},            // first downlink arrival at model time 0
                {1, 1, 1, 50},              // uplink: ignored
                {s, 5, 0, 1000},            // drop at 1 s
                {2 * s, 5, 0, 1000},        // drop at 2 s: the split
                {3 * s, 5, 0, 1000},        // after it
                {3 * s, 5, 1, 1000},        // an uplink drop
                {4 * s, 6, 0, 1000},        // delivered within 5 s
                {5 * s - 1, 6, 0, 500},     // still within
                {5 * s, 6, 0, 1000},        // at 5 s: outside the window
                {8 * s, 6, 0, 2500}});
        Path f = Files.write(dir.resolve("timed.bin"), b);
        EmulatorLog.Counts c = EmulatorLog.read(f, wall + 2 * s, 5 * s);
        assertEquals(3, c.drops());
        assertEquals(3, c.episodes(), "drops 1 s apart are episodes of their own");
        assertEquals(1, c.firstEpisode());
        assertEquals(1, c.largestEpisode());
        assertEquals(2, c.dropsBeforeSplit());
        assertEquals(5000, c.deliveredBytes());
        assertEquals(1500, c.windowBytes());
        assertEquals(8 * s, c.spanNs());
        assertNull(c.note());
        EmulatorLog.Counts none = EmulatorLog.count(f);
        assertEquals(0, none.dropsBeforeSplit(), "no split without a moment");
        assertEquals(3, none.drops());
    }

    /**
     * A log longer than the reader's 64 KiB chunks: flow descriptions of odd lengths put the records after them across
     * the chunks' ends, and one description is longer than a chunk. Every record is counted, and a log cut inside the
     * long description or inside a record past the first chunk gives the note with the byte offset.
     */
    @Test
    void recordsAcrossChunksAndLongDescriptionsAreRead() throws IOException {
        long wall = 5_000_000_000L;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        h.put("PLEVLOG1".getBytes(StandardCharsets.US_ASCII)).putShort((short) 1).putShort((short) 32).putInt(0)
                .putLong(wall).putLong(7);
        o.writeBytes(h.array());
        long split = 10_000_000_000L;
        long window = 5_000_000_000L;
        long drops = 0;
        long dropsBefore = 0;
        long delivered = 0;
        long inWindow = 0;
        long firstArrival = -1;
        long lastDelivery = -1;
        long longTextEnd = 0;
        for (int i = 0; i < 20_000; i++) {
            if (i % 1_000 == 0) { // a flow description of 1, 8, 15, ... bytes; the 7th of 100,001 bytes
                int length = i == 7_000 ? 100_001 : 1 + 7 * (i / 1_000);
                byte[] text = "x".repeat(length).getBytes(StandardCharsets.US_ASCII);
                ByteBuffer flow = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
                flow.putLong(0).putLong(0).putInt(1).putInt(length).put((byte) 16).put((byte) 0).put((byte) 0)
                        .put((byte) 0).putInt(0);
                o.writeBytes(flow.array());
                o.writeBytes(text);
                if (i == 7_000) {
                    longTextEnd = o.size();
                }
            }
            int type = i % 10 == 3 ? 5 : i % 10 == 5 ? 1 : 6; // drops, arrivals and deliveries
            int direction = i % 7 == 0 ? 1 : 0; // some uplink records, not counted
            int size = 1000 + i % 300;
            long time = i * 1_000_000L;
            if (direction == 0 && type == 5) {
                drops++;
                dropsBefore += time <= split ? 1 : 0;
            } else if (direction == 0 && type == 1 && firstArrival < 0) {
                firstArrival = time;
            } else if (direction == 0 && type == 6) {
                delivered += size;
                inWindow += firstArrival >= 0 && time - firstArrival < window ? size : 0;
                lastDelivery = time;
            }
            ByteBuffer r = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
            r.putLong(time).putLong(i).putInt(1).putInt(size).put((byte) type).put((byte) direction)
                    .put((byte) 0).put((byte) 0).putInt(0);
            o.writeBytes(r.array());
        }
        byte[] b = o.toByteArray();
        Path f = Files.write(dir.resolve("long.bin"), b);
        EmulatorLog.Counts c = EmulatorLog.read(f, wall + split, window);
        assertNull(c.note());
        assertEquals(drops, c.drops());
        assertEquals(1, c.episodes(), "drops 10 ms apart are one episode");
        assertEquals(dropsBefore, c.dropsBeforeSplit());
        assertEquals(delivered, c.deliveredBytes());
        assertEquals(inWindow, c.windowBytes());
        assertEquals(lastDelivery - firstArrival, c.spanNs());
        assertTrue(dropsBefore > 0 && dropsBefore < drops && inWindow > 0 && inWindow < delivered, "the test's split and window fall inside the log");

        Path inText = Files.write(dir.resolve("cut-text.bin"), Arrays.copyOf(b, (int) longTextEnd - 10));
        EmulatorLog.Counts t = EmulatorLog.count(inText);
        assertEquals(longTextEnd - 100_001, Long.parseLong(t.note().replaceAll(".*byte offset (\\d+);.*", "$1")), t.note());
        assertTrue(t.note().contains("ends inside a flow description"), t.note());

        Path inRecord = Files.write(dir.resolve("cut-record.bin"), Arrays.copyOf(b, b.length - 40));
        EmulatorLog.Counts r = EmulatorLog.count(inRecord);
        assertEquals(b.length - 64, Long.parseLong(r.note().replaceAll(".*byte offset (\\d+);.*", "$1")), r.note());
        assertTrue(r.note().contains("ends inside a record"), r.note());
    }

    @Test
    void aLogReadAheadGivesTheCountsOfAnySplit() throws IOException {
        long wall = 1_000_000_000_000L;
        long s = 1_000_000_000L;
        byte[] b = timedLog(wall, new long[][] {
                {0, 1, 0, 1000}, {s, 5, 0, 1000}, {2 * s, 5, 0, 1000}, {3 * s, 5, 0, 1000}, {3 * s, 5, 1, 1000},
                {4 * s, 6, 0, 1000}, {5 * s, 6, 0, 1000}});
        Path f = Files.write(dir.resolve("ahead.bin"), b);
        EmulatorLog.Ahead ahead = EmulatorLog.Ahead.start(f, 5 * s);
        for (long split : new long[] {Long.MIN_VALUE, wall, wall + s, wall + 2 * s, wall + 3 * s, Long.MAX_VALUE}) {
            assertEquals(EmulatorLog.read(f, split, 5 * s), ahead.counts(f, split, 5 * s), "split " + split);
        }
        assertEquals(2, ahead.counts(f, wall + 2 * s, 5 * s).dropsBeforeSplit());
        assertNull(ahead.counts(f, Long.MIN_VALUE, 4 * s), "another window");
        assertNull(ahead.counts(dir.resolve("other.bin"), Long.MIN_VALUE, 5 * s), "another file");

        Path cut = Files.write(dir.resolve("ahead-cut.bin"), Arrays.copyOf(b, b.length - 5));
        assertEquals(EmulatorLog.read(cut, wall + s, s), EmulatorLog.Ahead.start(cut, s).counts(cut, wall + s, s),
                "a log ending inside a record: the same counts and note");
        Path missing = dir.resolve("missing.bin");
        assertNull(EmulatorLog.Ahead.start(missing, s).counts(missing, Long.MIN_VALUE, s), "a failed read: the caller reads");
        assertThrows(IOException.class, () -> EmulatorLog.read(missing, Long.MIN_VALUE, s));
    }

    @Test
    void otherFilesAreRefused() throws IOException {
        Path f = Files.writeString(dir.resolve("x.bin"), "not an event log at all, really not");
        IOException e = assertThrows(IOException.class, () -> EmulatorLog.count(f));
        assertTrue(e.getMessage().contains("PLEVLOG1"), e.getMessage());
    }
}
