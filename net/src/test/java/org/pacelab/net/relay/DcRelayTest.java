package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.LogEvent;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;

/** The relay with a dual-connectivity link on loopback: two routes share the paths, one of them on path b only. */
class DcRelayTest {
    @Test
    void twoRoutesShareThePathsAndArriveInOrder(@TempDir Path dir) throws Exception {
        try (DatagramChannel s1 = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel s2 = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel c1 = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel c2 = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            List<RelayRoute> routes = List.of(
                    new RelayRoute(new InetSocketAddress("127.0.0.1", 0), (InetSocketAddress) s1.getLocalAddress(), DcFlowMode.DUAL),
                    new RelayRoute(new InetSocketAddress("127.0.0.1", 0), (InetSocketAddress) s2.getLocalAddress(), DcFlowMode.PATH_B));
            // path b 15 ms slower than a: without the reordering receiver the batches would arrive out of order
            RelayConfig cfg = new RelayConfig(routes, null, DcSpecParser.parse("batch=4 ratio=1:1 wire=off",
                    "rate=unlimited delay=2ms jitter=none", "rate=unlimited delay=17ms jitter=none", "delay=1ms"),
                    1, null, 0, dir.resolve("events.bin"), 1 << 20, 100_000, 16, 10_000, false);
            UdpRelay relay = new UdpRelay(cfg);
            Thread t = new Thread(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
            t.start();
            try {
                c1.configureBlocking(true);
                c2.configureBlocking(true);
                s1.configureBlocking(true);
                s2.configureBlocking(true);
                // each client opens its flow with one datagram; the servers learn the relay's per-flow address
                c1.send(ByteBuffer.wrap(new byte[] {1}), relay.listenAddress(0));
                c2.send(ByteBuffer.wrap(new byte[] {2}), relay.listenAddress(1));
                ByteBuffer b = ByteBuffer.allocate(100);
                InetSocketAddress flow1 = (InetSocketAddress) s1.receive(b);
                b.clear();
                InetSocketAddress flow2 = (InetSocketAddress) s2.receive(b);
                int n = 40;
                for (int i = 0; i < n; i++) {
                    s1.send(ByteBuffer.wrap(new byte[] {(byte) i, 1}), flow1);
                    s2.send(ByteBuffer.wrap(new byte[] {(byte) i, 2}), flow2);
                }
                for (int i = 0; i < n; i++) {
                    ByteBuffer got = ByteBuffer.allocate(10);
                    c1.receive(got);
                    assertArrayEquals(new byte[] {(byte) i, 1}, java.util.Arrays.copyOf(got.array(), got.position()));
                    got.clear();
                    c2.receive(got);
                    assertArrayEquals(new byte[] {(byte) i, 2}, java.util.Arrays.copyOf(got.array(), got.position()));
                }
            } finally {
                relay.stop();
                t.join(5000);
                relay.close();
            }
            List<LogEvent> events = new ArrayList<>();
            EventLogReader.Result r = EventLogReader.read(dir.resolve("events.bin"), events::add);
            assertTrue(r.flows().get(1).endsWith(" path=dc"), r.flows().get(1));
            assertTrue(r.flows().get(2).endsWith(" path=b"), r.flows().get(2));
            Map<String, Integer> perFlowPath = new TreeMap<>();
            for (LogEvent e : events) {
                if (e.type() == EventType.DEQUEUE && e.direction().index() == 0) perFlowPath.merge(e.flow() + "/" + e.path(), 1, Integer::sum);
            }
            assertEquals(Map.of("1/0", 20, "1/1", 20, "2/1", 40), perFlowPath);
            assertTrue(events.stream().anyMatch(e -> e.type() == EventType.REORDER_HOLD && e.flow() == 1));
            assertTrue(relay.report().contains("dc   flow 2 (b): 0 bytes on a"), relay.report());
        }
    }

    @Test
    void aPathModeWithoutDualConnectivityIsRefused() throws Exception {
        RelayConfig cfg = new RelayConfig(List.of(new RelayRoute(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 9), DcFlowMode.PATH_A)), LinkSpecParser.parse("none", null, null), null,
                1, null, 0, null, 1 << 20, 100_000, 16, 1000, false);
        SpecException e = assertThrows(SpecException.class, () -> new UdpRelay(cfg));
        assertTrue(e.getMessage().endsWith(": path=a needs a dual-connectivity link (--dc)"), e.getMessage());
    }
}
