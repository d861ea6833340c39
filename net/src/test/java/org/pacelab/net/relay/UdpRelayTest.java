package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.EventType;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.log.EventLogSummary;
import org.pacelab.net.pcap.PcapngTestReader;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.sys.Libc;
import org.pacelab.net.sys.SysException;

/** The relay on loopback: datagrams cross both ways, the tap and the event log record them. */
class UdpRelayTest {
    @Test
    void echoesThroughTheLinkAndRecords(@TempDir Path dir) throws Exception {
        try (DatagramChannel server = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress serverAddr = (InetSocketAddress) server.getLocalAddress();
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("127.0.0.1", 0), serverAddr,
                    LinkSpecParser.parse("quic-steps", "delay=5ms", "delay=5ms"), 1, dir.resolve("tap.pcapng"), 0,
                    dir.resolve("events.bin"), 1 << 20, 100_000, 16, 10_000, false);
            UdpRelay relay = new UdpRelay(cfg);
            InetSocketAddress relayAddr = relay.listenAddress();
            Thread t = new Thread(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
            t.start();
            long start = System.nanoTime();
            int n = 20;
            server.configureBlocking(true);
            client.configureBlocking(true);
            for (int i = 0; i < n; i++) {
                byte[] msg = ("ping " + i).getBytes();
                client.send(ByteBuffer.wrap(msg), relayAddr);
                ByteBuffer got = ByteBuffer.allocate(100);
                SocketAddress from = server.receive(got);
                server.send(got.flip(), from);
                ByteBuffer back = ByteBuffer.allocate(100);
                client.receive(back);
                assertArrayEquals(msg, java.util.Arrays.copyOf(back.array(), back.position()));
            }
            long rttNanos = (System.nanoTime() - start) / n;
            relay.stop();
            t.join(5000);
            relay.close();
            assertTrue(rttNanos >= 10_000_000L, "each round trip crosses 5 ms + 5 ms of delay");
            EventLogSummary s = EventLogReader.summarize(dir.resolve("events.bin"));
            assertEquals(n, s.count(Direction.DOWN, EventType.DELIVER));
            assertEquals(n, s.count(Direction.UP, EventType.DELIVER));
            assertEquals(1, s.flows().size());
            List<PcapngTestReader.Epb> pk = PcapngTestReader.packets(dir.resolve("tap.pcapng"));
            assertEquals(2 * n, pk.size());
            assertEquals(28 + "ping 0".length(), pk.get(0).origLen());
            assertEquals(relay.stats().datagramsIn, 2L * n);
        }
    }

    @Test
    void addressInUseIsOneClearSentence() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress addr = (InetSocketAddress) taken.getLocalAddress();
            RelayConfig cfg = new RelayConfig(addr, new InetSocketAddress("127.0.0.1", 9), LinkSpecParser.parse("none", null, null),
                    1, null, 0, null, 1 << 20, 100_000, 16, 1000, false);
            SysException e = assertThrows(SysException.class, () -> new UdpRelay(cfg));
            assertEquals(Libc.EADDRINUSE, e.errno());
            assertEquals("--listen: cannot bind 127.0.0.1:" + addr.getPort() + ": address already in use (another process "
                    + "is bound to it; choose another port or stop that process)", e.getMessage());
        }
    }

    @Test
    void ipv6Works(@TempDir Path dir) throws Exception {
        try (DatagramChannel server = DatagramChannel.open().bind(new InetSocketAddress("::1", 0));
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("::1", 0))) {
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("::1", 0), (InetSocketAddress) server.getLocalAddress(),
                    LinkSpecParser.parse("none", null, null), 1, dir.resolve("t.pcapng"), 0, null, 1 << 20, 100_000, 16, 1000, false);
            UdpRelay relay = new UdpRelay(cfg);
            Thread t = new Thread(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
            t.start();
            client.send(ByteBuffer.wrap(new byte[] {42}), relay.listenAddress());
            ByteBuffer got = ByteBuffer.allocate(10);
            assertNotNull(server.receive(got));
            assertEquals(42, got.get(0));
            relay.stop();
            t.join(5000);
            relay.close();
            assertEquals(0x60, PcapngTestReader.packets(dir.resolve("t.pcapng")).get(0).data()[0] & 0xf0);
        }
    }
}
