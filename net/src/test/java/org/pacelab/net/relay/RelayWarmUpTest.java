package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.EventLogSummary;
import org.pacelab.net.pcap.PcapngTestReader;
import org.pacelab.net.spec.LinkSpecParser;

/**
 * The relay's warm-up runs its packets through a copy: the real relay built after it starts with empty counters, tap
 * and event log, and records a transfer exactly as a relay without a warm-up does.
 */
class RelayWarmUpTest {
    private static final int ECHOES = 20;

    @Test
    void pushesItsPacketsAndLeavesNothingBehind(@TempDir Path tmp) throws Exception {
        RelayConfig cfg = config(new InetSocketAddress("127.0.0.1", 9), null);
        WarmUp.Result r = UdpRelay.warmUp(cfg, 3000, tmp);
        assertEquals(3000, r.packets());
        assertFalse(r.timeLimited());
        assertTrue(r.delivered() > 1000 && r.delivered() <= 3000, "delivered " + r.delivered());
        assertTrue(r.modelNanos() > 0);
        assertEquals(List.of(), list(tmp), "the warm-up's temporary tap and event log are deleted");
        assertFalse(Files.exists(cfg.tap()), "the real tap is not written");
        assertFalse(Files.exists(cfg.eventLog()), "the real event log is not written");
    }

    @Test
    void aDualConnectivityRelayWarmsUpOverItsRoutesModes(@TempDir Path tmp) throws Exception {
        try (DatagramChannel server = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress s = (InetSocketAddress) server.getLocalAddress();
            List<RelayRoute> routes = List.of(new RelayRoute(new InetSocketAddress("127.0.0.1", 0), s, DcFlowMode.DUAL),
                    new RelayRoute(new InetSocketAddress("127.0.0.1", 0), s, DcFlowMode.PATH_A),
                    new RelayRoute(new InetSocketAddress("127.0.0.1", 0), s, DcFlowMode.PATH_B));
            RelayConfig cfg = new RelayConfig(routes, null, DcSpecParser.parse("batch=10", null, null, null), 1, null, 0,
                    null, 1 << 20, 100_000, 16, 100_000, false);
            WarmUp.Result r = UdpRelay.warmUp(cfg, 3000, tmp);
            assertEquals(3000, r.packets());
            assertTrue(r.delivered() > 1000, "delivered " + r.delivered());
        }
    }

    @Test
    void theRealRelayRecordsATransferAsIfThereHadBeenNoWarmUp(@TempDir Path dir) throws Exception {
        Recorded cold = echo(dir.resolve("cold"), 0);
        Recorded warm = echo(dir.resolve("warm"), 2000);
        assertEquals(2L * ECHOES, cold.datagramsIn);
        assertEquals(cold.datagramsIn, warm.datagramsIn);
        assertEquals(cold.datagramsOut, warm.datagramsOut);
        assertEquals(cold.flows, warm.flows);
        assertEquals(cold.counters, warm.counters);
        assertEquals(cold.tapPackets, warm.tapPackets);
        assertEquals(2 * ECHOES, warm.tapPackets);
        assertArrayEquals(cold.logCounts, warm.logCounts);
        assertEquals(1, warm.logFlows);
        assertEquals(List.of("events.bin", "tap.pcapng"), warm.files, "nothing of the warm-up is beside the run's files");
    }

    private record Recorded(long datagramsIn, long datagramsOut, long flows, String counters, int tapPackets,
                            long[] logCounts, int logFlows, List<String> files) { }

    /** {@link #ECHOES} round trips through a relay built after a warm-up of {@code warmUp} packets (0: none). */
    private static Recorded echo(Path dir, int warmUp) throws Exception {
        Files.createDirectories(dir);
        try (DatagramChannel server = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            RelayConfig cfg = config((InetSocketAddress) server.getLocalAddress(), dir);
            if (warmUp > 0) {
                Path tmp = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-tmp"));
                assertEquals(warmUp, UdpRelay.warmUp(cfg, warmUp, tmp).packets());
                assertEquals(List.of(), list(tmp), "the warm-up's temporary directory is deleted");
            }
            UdpRelay relay = new UdpRelay(cfg);
            assertEquals(0, relay.stats().datagramsIn, "the real relay's statistics start empty");
            assertEquals(0, relay.counters().count(Direction.DOWN, EventType.ARRIVAL));
            InetSocketAddress relayAddr = relay.listenAddress();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    relay.run();
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            t.start();
            try {
                server.configureBlocking(false);
                client.configureBlocking(false);
                for (int i = 0; i < ECHOES; i++) {
                    byte[] msg = ("ping " + i).getBytes();
                    client.send(ByteBuffer.wrap(msg), relayAddr);
                    ByteBuffer got = ByteBuffer.allocate(100);
                    SocketAddress from = receive(server, got, failed);
                    server.send(got.flip(), from);
                    ByteBuffer back = ByteBuffer.allocate(100);
                    receive(client, back, failed);
                    assertArrayEquals(msg, java.util.Arrays.copyOf(back.array(), back.position()));
                }
            } finally {
                relay.stop();
                t.join(5000);
                relay.close();
            }
            assertFalse(t.isAlive(), "the relay stopped");
            if (failed.get() != null) throw new AssertionError("the relay failed", failed.get());
            EventLogSummary s = EventLogReader.summarize(dir.resolve("events.bin"));
            List<Long> counts = new ArrayList<>();
            for (Direction d : Direction.values()) for (EventType e : EventType.values()) counts.add(s.count(d, e));
            List<String> files;
            try (Stream<Path> f = Files.list(dir)) {
                files = f.map(p -> p.getFileName().toString()).sorted().toList();
            }
            return new Recorded(relay.stats().datagramsIn, relay.stats().datagramsOut, relay.stats().flows,
                    relay.counters().format(), PcapngTestReader.packets(dir.resolve("tap.pcapng")).size(),
                    counts.stream().mapToLong(Long::longValue).toArray(), s.flows().size(), files);
        }
    }

    private static RelayConfig config(InetSocketAddress server, Path dir) throws Exception {
        return new RelayConfig(new InetSocketAddress("127.0.0.1", 0), server,
                LinkSpecParser.parse("quic-steps", "delay=5ms", "delay=5ms"), 1,
                dir == null ? Path.of(System.getProperty("java.io.tmpdir"), "unused-tap.pcapng") : dir.resolve("tap.pcapng"), 0,
                dir == null ? Path.of(System.getProperty("java.io.tmpdir"), "unused-events.bin") : dir.resolve("events.bin"),
                1 << 20, 100_000, 16, 100_000, false);
    }

    /** A datagram for {@code ch} within 5 s (bounded: a dead relay fails the test with its exception, never hangs it). */
    private static SocketAddress receive(DatagramChannel ch, ByteBuffer into, AtomicReference<Throwable> relayFailed)
            throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() - deadline < 0) {
            SocketAddress from = ch.receive(into);
            if (from != null) return from;
            if (relayFailed.get() != null) throw new AssertionError("the relay failed", relayFailed.get());
            Thread.sleep(1);
        }
        throw new AssertionError("no datagram within 5 s");
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> f = Files.list(dir)) {
            return f.sorted().toList();
        }
    }
}
