package org.pacelab.net.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.net.pcap.PcapngTestReader;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.sys.UdpSocket;

/** NAT rebinding (the Interop Runner's rebind-port / rebind-addr) and ECN marks kept across the relay. */
class RelayRebindingTest {
    private static UdpRelay start(RelayConfig cfg) throws Exception {
        UdpRelay relay = new UdpRelay(cfg);
        Thread t = new Thread(() -> { try { relay.run(); } catch (Exception e) { throw new RuntimeException(e); } });
        t.setDaemon(true);
        t.start();
        return relay;
    }

    @Test
    void rebindingMovesTheClientToNewAddressesAndPortsAsTheServerSeesIt(@TempDir Path dir) throws Exception {
        try (UdpSocket server = UdpSocket.bind(new InetSocketAddress("127.0.0.1", 0), "server");
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("127.0.0.1", 0), server.localAddress(),
                    LinkSpecParser.parse("none", null, null), 1, dir.resolve("tap.pcapng"), 0, null, 1 << 20, 100_000, 16,
                    10_000, false).withRebinding(Rebinding.parse("--rebind", "100ms/100ms,addr"));
            UdpRelay relay = start(cfg);
            InetSocketAddress relayAddr = relay.listenAddress();
            Set<InetSocketAddress> seen = new HashSet<>();
            Set<String> addresses = new HashSet<>();
            int received = 0;
            // 40 datagrams 20 ms apart, then until the server has them all (on a loaded host the relay's thread may
            // run late; stopping it early would leave the last ones unforwarded and unrecorded), at most 60 s
            long deadline = System.nanoTime() + 60_000_000_000L;
            for (int i = 0; received < 40 && System.nanoTime() < deadline; i++) {
                if (i < 40) {
                    client.send(ByteBuffer.wrap(("ping " + i).getBytes()), relayAddr);
                }
                Thread.sleep(20);
                while (server.receive() >= 0) {
                    received++;
                    if (seen.isEmpty()) {
                        // the schedule starts with the server's first datagram
                        server.send(ByteBuffer.wrap("hello".getBytes()), server.lastSource());
                    }
                    seen.add(server.lastSource());
                    addresses.add(server.lastSource().getAddress().getHostAddress());
                }
            }
            assertEquals(40, received, "datagrams through the relay");
            relay.stop();
            Thread.sleep(50);
            relay.close();
            assertTrue(relay.rebinds() >= 3, "rebindings: " + relay.rebinds());
            assertTrue(seen.size() >= 3, "the server saw " + seen);
            assertTrue(addresses.size() >= 3, "the server saw addresses " + addresses);
            assertTrue(addresses.stream().allMatch(a -> a.startsWith("127.")), addresses.toString());
            List<PcapngTestReader.Epb> pk = PcapngTestReader.packets(dir.resolve("tap.pcapng"));
            assertEquals(41, pk.size(), "40 datagrams up and the reply down");
        }
    }

    @Test
    void repliesReachTheClientThroughEachNewBinding(@TempDir Path dir) throws Exception {
        try (UdpSocket server = UdpSocket.bind(new InetSocketAddress("127.0.0.1", 0), "server");
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("127.0.0.1", 0), server.localAddress(),
                    LinkSpecParser.parse("none", null, null), 1, dir.resolve("tap.pcapng"), 0, null, 1 << 20, 100_000, 16,
                    10_000, false).withRebinding(Rebinding.parse("--rebind", "100ms/100ms"));
            UdpRelay relay = start(cfg);
            client.configureBlocking(false);
            // ping-pong until replies have come back through three different bindings (the server names the source it
            // answered in each reply); a reply sent just before a rebinding goes to the old, closed binding and is
            // lost, as behind a real NAT, so the client pings again. Bounded: 60 s.
            Set<String> deliveredThrough = new HashSet<>();
            ByteBuffer in = ByteBuffer.allocate(100);
            long deadline = System.nanoTime() + 60_000_000_000L;
            for (int i = 0; deliveredThrough.size() < 3 && System.nanoTime() < deadline; i++) {
                client.send(ByteBuffer.wrap(("ping " + i).getBytes()), relay.listenAddress());
                Thread.sleep(20);
                while (server.receive() >= 0) {
                    server.send(ByteBuffer.wrap(("pong " + server.lastSource()).getBytes()), server.lastSource());
                }
                Thread.sleep(5);
                while (client.receive(in.clear()) != null) {
                    deliveredThrough.add(new String(in.array(), 0, in.position()));
                }
            }
            relay.stop();
            Thread.sleep(50);
            relay.close();
            assertTrue(relay.rebinds() >= 2, "rebindings: " + relay.rebinds());
            assertEquals(3, deliveredThrough.size(), "replies came back through the bindings " + deliveredThrough);
        }
    }

    @Test
    void ecnMarksCrossTheRelayAndReachTheTap(@TempDir Path dir) throws Exception {
        try (UdpSocket server = UdpSocket.bind(new InetSocketAddress("127.0.0.1", 0), "server");
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            server.enableTrafficClass();
            RelayConfig cfg = new RelayConfig(new InetSocketAddress("127.0.0.1", 0), server.localAddress(),
                    LinkSpecParser.parse("none", null, null), 1, dir.resolve("tap.pcapng"), 0, null, 1 << 20, 100_000, 16,
                    10_000, false);
            UdpRelay relay = start(cfg);
            client.setOption(StandardSocketOptions.IP_TOS, 0x02);   // ECT(0)
            client.send(ByteBuffer.wrap("ect0".getBytes()), relay.listenAddress());
            int len = -1;
            for (int i = 0; i < 500 && len < 0; i++) {
                Thread.sleep(10);
                len = server.receive();
            }
            relay.stop();
            Thread.sleep(50);
            relay.close();
            assertEquals(4, len);
            assertEquals(0x02, server.lastTrafficClass() & 0x03);
            List<PcapngTestReader.Epb> pk = PcapngTestReader.packets(dir.resolve("tap.pcapng"));
            assertEquals(1, pk.size());
            assertEquals(0x02, pk.get(0).data()[1] & 0x03, "the tap's IPv4 TOS byte carries ECT(0)");
        }
    }

    @Test
    void badRebindingSpecsAreOneSentence() {
        assertEquals("--rebind: 'port' is not addr; write FIRST[/EVERY][,addr], e.g. 1s/5s (new ports at 1 s, then every 5 s) "
                + "or 1s/5s,addr (new addresses too)", assertThrows(SpecException.class, () -> Rebinding.parse("--rebind", "1s,port"))
                .getMessage());
        assertEquals(3, new Rebinding(1_000, 500, false).due(2_000));
        assertEquals(0, new Rebinding(1_000, 500, false).due(999));
        assertEquals(1, new Rebinding(1_000, 0, false).due(1_000_000));
    }
}
