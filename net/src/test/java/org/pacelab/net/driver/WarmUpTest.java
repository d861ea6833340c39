package org.pacelab.net.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.spec.SpecException;

/** The warm-up option's values and its line in the emulator's output. */
class WarmUpTest {
    @Test
    void parsesOffOnAndPacketCounts() throws SpecException {
        assertEquals(0, WarmUp.parse("--warmup", "off"));
        assertEquals(0, WarmUp.parse("--warmup", " OFF "));
        assertEquals(WarmUp.DEFAULT_PACKETS, WarmUp.parse("--warmup", "on"));
        assertEquals(5000, WarmUp.parse("--warmup", "5000"));
        assertEquals(20000, WarmUp.parse("--warmup", "20_000"));
        assertEquals(WarmUp.MIN_PACKETS, WarmUp.parse("--warmup", Integer.toString(WarmUp.MIN_PACKETS)));
        assertEquals(WarmUp.MAX_PACKETS, WarmUp.parse("--warmup", Integer.toString(WarmUp.MAX_PACKETS)));
        assertEquals("off", WarmUp.word(0));
        assertEquals("5000", WarmUp.word(5000));
        assertEquals(15000, WarmUp.share(30000, 0));
        assertEquals(15000, WarmUp.share(30000, WarmUp.COPIES - 1));
        assertEquals(101, WarmUp.share(101, 0) + WarmUp.share(101, 1), "the copies run every packet asked");
    }

    @Test
    void aBadValueIsOneSentenceNamingTheOptionAndTheValidChoices() {
        for (String bad : new String[] {"soon", "", "0", "99", "10000001", "-5", "1e4", "30k"}) {
            SpecException e = assertThrows(SpecException.class, () -> WarmUp.parse("--warmup", bad), bad);
            assertEquals("--warmup: '" + bad + "' is not valid; use off, on (30000 packets) or a number of packets from 100 "
                    + "to 10000000", e.getMessage());
            assertEquals(1, e.getMessage().lines().count());
        }
    }

    @Test
    void itsLineSaysPacketsAndMilliseconds() {
        String line = new WarmUp.Result(30000, 29500, 812_000_000L, 9_100_000_000L, 230_000_000L, false, 30000).describe();
        assertEquals("warm-up: 30000 packets through 2 fresh copies of the link (29500 delivered, 9.1 s of model time) in 812 ms, "
                + "then 230 ms until the JIT compilers were idle; the tap, event log and counters start empty", line);
        String limited = new WarmUp.Result(1200, 1100, 30_000_000_000L, 1_000_000_000L, 0, true, 30000).describe();
        assertTrue(limited.startsWith("warm-up: 1200 packets ") && limited.contains("(stopped at the warm-up's 30 s limit for all copies and settling; 30000 asked)"),
                limited);
        assertTrue(WarmUp.OFF.startsWith("warm-up: off"));
    }

    @Test
    void oneDeadlineCoversEveryCopyAndItsTemporaryDirectoryIsDeleted(@TempDir Path parent) throws Exception {
        List<Long> deadlines = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        long before = System.nanoTime();
        WarmUp.Result r = WarmUp.run(parent, 101, (dir, packets, deadline) -> {
            deadlines.add(deadline);
            dirs.add(dir);
            assertTrue(Files.isDirectory(dir));
            assertTrue(dir.getParent().getFileName().toString().startsWith("pacelab-warmup-" + ProcessHandle.current().pid() + "-"),
                    dir.toString());
            Files.writeString(dir.resolve("tap.pcapng"), "x");
            return new WarmUp.Result(packets, packets, 1, 1, 0, false, packets);
        });
        long after = System.nanoTime();
        assertEquals(101, r.packets());
        assertEquals(WarmUp.COPIES, deadlines.size());
        assertEquals(1, deadlines.stream().distinct().count(), "every copy gets the same deadline");
        long d = deadlines.get(0);
        assertTrue(d - before >= WarmUp.LIMIT_NANOS && d - after <= WarmUp.LIMIT_NANOS, "the deadline is LIMIT_NANOS after the start");
        assertEquals(WarmUp.COPIES, dirs.stream().distinct().count(), "each copy has a directory of its own");
        assertEquals(List.of(), list(parent), "the warm-up's temporary directory is deleted");
    }

    @Test
    void deletesWhatAKilledWarmUpLeftButNotALiveProcesssDirectory(@TempDir Path parent) throws Exception {
        long dead = 999_999_999L; // above any Linux pid_max (4194304): no such process
        assertFalse(ProcessHandle.of(dead).isPresent());
        Path stale = Files.createDirectories(parent.resolve("pacelab-warmup-" + dead + "-123/copy-0"));
        Files.writeString(stale.resolve("events.bin"), "left by a killed emulator");
        Path live = Files.createDirectory(parent.resolve("pacelab-warmup-" + ProcessHandle.current().pid() + "-456"));
        Path noPid = Files.createDirectory(parent.resolve("pacelab-warmup-789"));
        Path other = Files.createDirectory(parent.resolve("something-else-" + dead + "-1"));
        WarmUp.run(parent, 100, (dir, packets, deadline) -> new WarmUp.Result(packets, packets, 1, 1, 0, false, packets));
        assertEquals(List.of(live.getFileName().toString(), noPid.getFileName().toString(), other.getFileName().toString()).stream().sorted().toList(),
                list(parent).stream().map(p -> p.getFileName().toString()).sorted().toList());
        assertEquals(999_999_999L, WarmUp.pid("pacelab-warmup-999999999-42"));
        assertEquals(-1, WarmUp.pid("pacelab-warmup-42"));
        assertEquals(-1, WarmUp.pid("pacelab-warmup-x-42"));
    }

    private static List<Path> list(Path dir) throws java.io.IOException {
        try (Stream<Path> f = Files.list(dir)) {
            return f.sorted().toList();
        }
    }
}
