package org.pacelab.net.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BlockFile#syncAhead}: the background syncs change neither the bytes nor what close and discard leave. */
class BlockFileSyncAheadTest {
    @TempDir
    Path dir;

    /** Writes {@code records} random records of up to 3,000 bytes (seeded) and closes; the finished file's bytes. */
    private byte[] write(Path target, long syncEvery, int records) throws IOException {
        BlockFile f = new BlockFile(target, 1 << 14, ByteOrder.LITTLE_ENDIAN, "test file");
        f.syncAhead(syncEvery);
        Random r = new Random(7);
        ByteBuffer buf = f.buffer();
        for (int i = 0; i < records; i++) {
            byte[] rec = new byte[1 + r.nextInt(3000)];
            r.nextBytes(rec);
            f.ensure(rec.length);
            buf.put(rec);
        }
        f.close();
        assertFalse(Files.exists(target.resolveSibling(target.getFileName() + ".part")), "the partial file is renamed");
        return Files.readAllBytes(target);
    }

    @Test
    void syncingAheadWritesTheSameBytes() throws IOException {
        byte[] plain = write(dir.resolve("plain"), 0, 2000);
        // a sync after every 16 KiB block (many overlap the writes) and after every 256 KiB
        assertArrayEquals(plain, write(dir.resolve("every-block"), 1, 2000));
        assertArrayEquals(plain, write(dir.resolve("every-256k"), 256 << 10, 2000));
        assertTrue(plain.length > 1_000_000, "long enough for several syncs: " + plain.length);
    }

    @Test
    void discardWhileSyncingRemovesThePartialFile() throws IOException {
        Path target = dir.resolve("discarded");
        BlockFile f = new BlockFile(target, 1 << 14, ByteOrder.LITTLE_ENDIAN, "test file");
        f.syncAhead(1);
        for (int i = 0; i < 100; i++) {
            f.ensure(10_000);
            f.buffer().put(new byte[10_000]);
        }
        f.discard();
        assertFalse(Files.exists(target));
        assertFalse(Files.exists(target.resolveSibling("discarded.part")));
    }

    @Test
    void negativeIntervalIsRefused() throws IOException {
        BlockFile f = new BlockFile(dir.resolve("x"), 1 << 10, ByteOrder.LITTLE_ENDIAN, "test file");
        assertThrows(IllegalArgumentException.class, () -> f.syncAhead(-1));
        f.discard();
    }
}
