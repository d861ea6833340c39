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

class EmulatorDropsTest {
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
        EmulatorDrops.Count c = EmulatorDrops.count(f);
        assertEquals(2, c.drops());
        assertNull(c.note());
        Path cut = Files.write(dir.resolve("cut.bin"), Arrays.copyOf(b, b.length - 5));
        EmulatorDrops.Count partial = EmulatorDrops.count(cut);
        assertEquals(2, partial.drops());
        assertTrue(partial.note().contains("ends inside a record"), partial.note());
    }

    @Test
    void otherFilesAreRefused() throws IOException {
        Path f = Files.writeString(dir.resolve("x.bin"), "not an event log at all, really not");
        IOException e = assertThrows(IOException.class, () -> EmulatorDrops.count(f));
        assertTrue(e.getMessage().contains("PLEVLOG1"), e.getMessage());
    }
}
