package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ports of cells that run at once: never the same port to two cells while both hold it, never one in use, and
 * from outside the kernel's ephemeral range, where sockets bound to port 0 (other cells' clients) cannot land.
 */
class LoopbackPortsTest {
    @TempDir
    Path dir;

    @Test
    void theRangeIsBelowTheKernelsEphemeralOnesOrAboveWhenThatIsLarger() throws IOException {
        assertArrayEquals(new int[] {32_768, 60_999}, LoopbackPorts.ephemeralRange(
                Files.writeString(dir.resolve("range"), "32768\t60999\n")));
        assertArrayEquals(new int[] {32_768, 60_999}, LoopbackPorts.ephemeralRange(dir.resolve("missing")),
                "Linux's default when the file cannot be read");
        assertArrayEquals(new int[] {32_768, 60_999}, LoopbackPorts.ephemeralRange(
                Files.writeString(dir.resolve("odd"), "60999 32768\n")));

        LoopbackPorts usual = LoopbackPorts.outside(new int[] {32_768, 60_999});
        assertEquals(LoopbackPorts.FLOOR, usual.low());
        assertEquals(32_768, usual.high());
        LoopbackPorts high = LoopbackPorts.outside(new int[] {15_000, 20_000});
        assertEquals(20_001, high.low(), "more room above the range than between the floor and it");
        assertEquals(65_536, high.high());
        LoopbackPorts everything = LoopbackPorts.outside(new int[] {1_024, 65_535});
        assertEquals(1_024, everything.low());
        assertEquals(65_536, everything.high());
    }

    @Test
    void aHeldPortIsNotGivenAgainUntilReleasedAndAPortInUseNever() throws IOException {
        Set<Integer> inUse = Set.of(20_001);
        LoopbackPorts ports = new LoopbackPorts(20_000, 20_004, p -> !inUse.contains(p));
        List<Integer> first = ports.take(2);
        List<Integer> second = ports.take(1);
        Set<Integer> all = new HashSet<>(first);
        all.addAll(second);
        assertEquals(Set.of(20_000, 20_002, 20_003), all, "three different ports, none of them the one in use");
        IOException none = assertThrows(IOException.class, () -> ports.take(1));
        assertEquals("no free UDP port left between 20000 and 20003 for the cell (3 held by the cells running, the others in "
                + "use)", none.getMessage());
        ports.release(first);
        assertEquals(new HashSet<>(first), new HashSet<>(ports.take(2)));
    }

    @Test
    void cellsTakingAtOnceGetDifferentPorts() throws Exception {
        LoopbackPorts ports = new LoopbackPorts(30_000, 30_064, p -> true);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<Integer>>> taken = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                taken.add(pool.submit(() -> ports.take(4)));
            }
            Set<Integer> seen = new HashSet<>();
            for (Future<List<Integer>> f : taken) {
                for (int p : f.get()) {
                    assertTrue(seen.add(p), "port " + p + " given twice");
                }
            }
            assertEquals(64, seen.size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void thisHostsPortsAreOutsideItsEphemeralRangeAndFree() throws IOException {
        int[] ephemeral = LoopbackPorts.ephemeralRange(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
        List<Integer> taken = LoopbackPorts.HOST.take(4);
        try {
            for (int p : taken) {
                assertTrue(p < ephemeral[0] || p > ephemeral[1] || ephemeral[0] <= 1_024 && ephemeral[1] >= 65_535,
                        p + " is in the ephemeral range " + ephemeral[0] + "–" + ephemeral[1]);
                assertTrue(LoopbackPorts.free(p));
            }
            int p = taken.getFirst();
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), p))) {
                assertFalse(LoopbackPorts.free(p), "a port bound on 127.0.0.1 is in use for the wildcard probe");
            }
            assertTrue(LoopbackPorts.free(p));
        } finally {
            LoopbackPorts.HOST.release(taken);
        }
    }
}
