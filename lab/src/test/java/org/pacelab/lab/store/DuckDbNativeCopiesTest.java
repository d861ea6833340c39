package org.pacelab.lab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB's native library copies in java.io.tmpdir: this JVM's unlinked once loaded, stale ones removed. */
class DuckDbNativeCopiesTest {
    @TempDir
    Path tmp;

    @Test
    void aStoreOpenedLeavesNoCopyOfTheLibraryOnDiskAndKeepsWorking() throws Exception {
        Path tmpdir = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
        try (ResultStore store = ResultStore.open(tmp.resolve("campaign.duckdb"))) {
            store.putCampaignInfo(Map.of("k", "v"));
            String maps = Files.readString(Path.of("/proc/self/maps"));
            assertTrue(maps.lines().anyMatch(l -> l.contains("/libduckdb_java") && l.endsWith(" (deleted)")),
                    "the library is loaded from a file that is gone");
            assertEquals(Set.of(), DuckDbNativeCopies.copies(maps, tmpdir), "no copy this JVM maps is left in " + tmpdir);
        }
        try (ResultStore again = ResultStore.open(tmp.resolve("campaign.duckdb"))) {
            assertEquals("v", again.campaignInfo().get("k"), "the unlinked library still serves new connections");
        }
    }

    @Test
    void mapsLinesNameTheCopiesStillOnDisk() {
        Path dir = Path.of("/tmp");
        String maps = """
                7f0000000000-7f0000100000 r-xp 00000000 fd:00 1234 /tmp/libduckdb_java337084316022083964.so
                7f0000100000-7f0000200000 r--p 00100000 fd:00 1234 /tmp/libduckdb_java337084316022083964.so
                7f0000200000-7f0000300000 r-xp 00000000 fd:00 1235 /tmp/libduckdb_java42.so (deleted)
                7f0000300000-7f0000400000 r-xp 00000000 fd:00 1236 /var/tmp/libduckdb_java7.so
                7f0000400000-7f0000500000 r-xp 00000000 fd:00 1237 /usr/lib/x86_64-linux-gnu/libc.so.6
                7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]
                """;
        assertEquals(Set.of(Path.of("/tmp/libduckdb_java337084316022083964.so")), DuckDbNativeCopies.copies(maps, dir));
    }

    @Test
    void onlyOldUnmappedCopiesAreRemoved() throws Exception {
        Instant now = Instant.parse("2026-12-02T08:00:00Z");
        FileTime old = FileTime.from(now.minus(Duration.ofHours(2)));
        Path stale = Files.writeString(tmp.resolve("libduckdb_java111.so"), "x");
        Path mapped = Files.writeString(tmp.resolve("libduckdb_java222.so"), "x");
        Path fresh = Files.writeString(tmp.resolve("libduckdb_java333.so"), "x");
        Path other = Files.writeString(tmp.resolve("libother123.so"), "x");
        for (Path p : List.of(stale, mapped, other)) {
            Files.setLastModifiedTime(p, old);
        }
        Files.setLastModifiedTime(fresh, FileTime.from(now.minus(Duration.ofMinutes(1))));
        assertEquals(List.of(stale), DuckDbNativeCopies.removeStale(tmp, Set.of(mapped), now));
        assertTrue(Files.exists(mapped) && Files.exists(fresh) && Files.exists(other));
        assertTrue(Files.notExists(stale));
    }
}
