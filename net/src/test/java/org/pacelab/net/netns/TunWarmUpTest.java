package org.pacelab.net.netns;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.pcap.PcapngTestReader;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.sys.TunDevice;

/**
 * The middlebox's warm-up (no root: its copy's "TUN devices" are socket pairs): it pushes its packets, and a real
 * middlebox built after it records a transfer exactly as one without a warm-up does.
 */
class TunWarmUpTest {
    private static final int PACKETS = 20;

    @Test
    void pushesItsPacketsThroughASinglePathLink(@TempDir Path tmp) throws Exception {
        WarmUp.Result r = TunMiddlebox.warmUp(LinkSpecParser.parse("quic-steps", null, null), null, Map.of(), 1, true, 0,
                true, 100_000, 1_000_000, 3000, tmp);
        assertEquals(List.of(), list(tmp), "the warm-up's temporary tap and event log are deleted");
        assertEquals(3000, r.packets());
        assertFalse(r.timeLimited());
        assertTrue(r.delivered() > 1000 && r.delivered() <= 3000, "delivered " + r.delivered());
    }

    @Test
    void pushesItsPacketsThroughADualConnectivityLinkOnEveryPortMode(@TempDir Path tmp) throws Exception {
        WarmUp.Result r = TunMiddlebox.warmUp(null, DcSpecParser.parse("batch=10", null, null, null),
                Map.of(4434, DcFlowMode.PATH_A, 4435, DcFlowMode.PATH_B), 1, false, 0, true, 100_000, 1_000_000, 3000, tmp);
        assertEquals(List.of(), list(tmp), "the warm-up's temporary event log is deleted");
        assertEquals(3000, r.packets());
        assertTrue(r.delivered() > 1000, "delivered " + r.delivered());
        assertArrayEquals(new int[] {4433, 4434, 4435}, TunWarmUpEnds.ports(java.util.Set.of(4434, 4435)));
        assertArrayEquals(new int[] {4434, 4433}, TunWarmUpEnds.ports(java.util.Set.of(4433)),
                "the flow without a mode of its own takes a port that has none");
    }

    @Test
    void theRealMiddleboxRecordsATransferAsIfThereHadBeenNoWarmUp(@TempDir Path dir) throws Exception {
        String cold = transfer(dir.resolve("cold"), 0);
        String warm = transfer(dir.resolve("warm"), 2000);
        assertEquals(cold, warm);
        assertTrue(warm.contains("in=" + 2 * PACKETS + " "), warm);
    }

    /** {@link #PACKETS} round trips of IPv4 packets through a middlebox on socket pairs; what it recorded, as text. */
    private static String transfer(Path dir, int warmUp) throws Exception {
        Files.createDirectories(dir);
        LinkSpec spec = LinkSpecParser.parse("quic-steps", "delay=1ms", "delay=1ms");
        if (warmUp > 0) {
            Path tmp = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-tmp"));
            assertEquals(warmUp, TunMiddlebox.warmUp(spec, null, Map.of(), 1, true, 0, true, 100_000, 100_000, warmUp, tmp).packets());
            assertEquals(List.of(), list(tmp), "the warm-up's temporary directory is deleted");
        }
        TunDevice[] s = TunDevice.socketPair("server side");
        TunDevice[] c = TunDevice.socketPair("client side");
        try {
            TunMiddlebox box = new TunMiddlebox(new NetnsLab.Tuns(s[0], c[0]), spec, 1, dir.resolve("tap.pcapng"), 0,
                    dir.resolve("events.bin"), 100_000, 100_000);
            assertEquals(0, box.stats().datagramsIn, "the real middlebox's statistics start empty");
            Thread t = new Thread(() -> {
                try {
                    box.run(false);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            t.start();
            TunWarmUpEnds ends = new TunWarmUpEnds(s[1], c[1], new int[] {4433});
            byte[] payload = new byte[200];
            byte[] got = new byte[65536];
            try {
                for (int i = 0; i < PACKETS; i++) {
                    payload[0] = (byte) i;
                    assertTrue(ends.send(Direction.DOWN, 0, payload, 200));
                    assertEquals(200, await(ends, Direction.DOWN, got));
                    assertEquals((byte) i, got[0]);
                    assertTrue(ends.send(Direction.UP, 0, payload, 40));
                    assertEquals(40, await(ends, Direction.UP, got));
                }
            } finally {
                box.stop();
                t.join(5000);
                box.close();
            }
            var log = EventLogReader.summarize(dir.resolve("events.bin"));
            List<String> files;
            try (Stream<Path> f = Files.list(dir)) {
                files = f.map(p -> p.getFileName().toString()).sorted().toList();
            }
            return "in=" + box.stats().datagramsIn + " out=" + box.stats().datagramsOut + " flows=" + box.stats().flows
                    + " tap=" + PcapngTestReader.packets(dir.resolve("tap.pcapng")).size()
                    + " log=" + log.count(Direction.DOWN, EventType.DELIVER) + "/" + log.count(Direction.UP, EventType.DELIVER)
                    + "/" + log.flows().size() + " files=" + files + "\n" + box.counters().format();
        } finally {
            for (TunDevice d : s) d.close();
            for (TunDevice d : c) d.close();
        }
    }

    /** Waits (at most 5 s) for one packet at the far end of direction {@code d}; its payload length. */
    private static int await(TunWarmUpEnds ends, Direction d, byte[] into) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            int n = ends.receive(d, into);
            if (n >= 0) return n;
            Thread.sleep(1);
        }
        return -1;
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> f = Files.list(dir)) {
            return f.sorted().toList();
        }
    }
}
