package org.pacelab.io.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.pacelab.io.port.NativeDatagramPort;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.LocalConnectionIds;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.StatelessResetTokens;
import org.pacelab.quic.tls.TlsConfig;

/** How datagrams become messages, GSO buffers and sendmmsg batches, observed by a receiver on loopback. */
class MessageTransmitterTest {
    private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);

    private static QuicConnection connection() throws Exception {
        ApplicationHandler idle = new ApplicationHandler() {
            @Override
            public void onConnected(StreamTransport transport) {}

            @Override
            public void onStreamReadable(long streamId) {}
        };
        TlsConfig tls = TlsConfig.client(List.of("hq-interop"), TlsConfig.ALL_SUITES, "localhost", null, false);
        return QuicConnection.client(ConnectionConfig.defaults(tls, CongestionConfig.DEFAULT), idle, new SplittableRandom(1),
                new StatelessResetTokens(new byte[32]), new LocalConnectionIds.Listener() {
                    @Override
                    public void onIssued(byte[] cid) {}

                    @Override
                    public void onRetired(byte[] cid) {}
                }, 0);
    }

    private static ByteBuffer datagram(int length, int tag) {
        ByteBuffer b = ByteBuffer.allocate(length);
        b.put(0, (byte) tag);
        return b;
    }

    /** Receives until {@code n} datagrams arrived (bounded); returns their lengths and first bytes. */
    private static List<int[]> receive(NativeDatagramPort rx, int n) throws Exception {
        List<int[]> got = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(65536);
        for (int spins = 0; got.size() < n && spins < 2000; spins++) {
            buf.clear();
            if (rx.receive(buf) == null) {
                rx.awaitReadable(1_000_000L);
                continue;
            }
            got.add(new int[] {buf.position(), buf.get(0)});
        }
        return got;
    }

    private static SendConfig config(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return SendConfig.fromOptions(m);
    }

    @Test
    void equalDatagramsShareAGsoBufferAndAShorterOneEndsIt() throws Exception {
        try (NativeDatagramPort tx = NativeDatagramPort.bind(ANY, 1 << 20, 1, false);
             NativeDatagramPort rx = NativeDatagramPort.bind(ANY, 1 << 20, 16, false);
             MessageTransmitter t = new MessageTransmitter(tx, config("--gso", "8"))) {
            QuicConnection c = connection();
            InetSocketAddress to = rx.localAddress();
            for (int k = 0; k < 5; k++) {
                t.add(datagram(1000, k), to, 0, c);
            }
            t.add(datagram(500, 5), to, 0, c);
            t.add(datagram(1000, 6), to, 0, c);
            t.add(datagram(1200, 7), to, 0, c);
            t.flush();
            List<int[]> got = receive(rx, 8);
            assertEquals(8, got.size());
            int[] lengths = {1000, 1000, 1000, 1000, 1000, 500, 1000, 1200};
            for (int k = 0; k < 8; k++) {
                assertEquals(lengths[k], got.get(k)[0], "datagram " + k);
                assertEquals(k, got.get(k)[1], "order");
            }
            Map<String, Long> counters = t.counters();
            assertEquals(8L, counters.get("datagrams_sent"));
            assertEquals(3L, counters.get("messages_sent"), "5x1000+500 | 1000 | 1200 (longer than the buffer's segments)");
            assertEquals(6L, counters.get("largest_gso_buffer"));
        }
    }

    @Test
    void autoGsoPutsWhatOneUdpDatagramHoldsInOneBuffer() throws Exception {
        try (NativeDatagramPort tx = NativeDatagramPort.bind(ANY, 1 << 22, 1, false);
             NativeDatagramPort rx = NativeDatagramPort.bind(ANY, 1 << 22, 64, false);
             MessageTransmitter t = new MessageTransmitter(tx, config("--gso", "auto"))) {
            QuicConnection c = connection();
            InetSocketAddress to = rx.localAddress();
            // a burst of 100 full datagrams: 45 + 45 + 10 (65507 / 1452 = 45 per UDP datagram)
            for (int k = 0; k < 100; k++) {
                t.add(datagram(1452, k), to, 0, c);
            }
            t.flush();
            List<int[]> got = receive(rx, 100);
            assertEquals(100, got.size());
            for (int k = 0; k < 100; k++) {
                assertEquals(1452, got.get(k)[0]);
                assertEquals((byte) k, (byte) got.get(k)[1], "order");
            }
            assertEquals(3L, t.counters().get("messages_sent"));
            assertEquals(45L, t.counters().get("largest_gso_buffer"));
        }
    }

    @Test
    void buffersHoldAtMostTheSegmentCountAndOneConnectionEach() throws Exception {
        try (NativeDatagramPort tx = NativeDatagramPort.bind(ANY, 1 << 20, 1, false);
             NativeDatagramPort rx = NativeDatagramPort.bind(ANY, 1 << 20, 16, false);
             MessageTransmitter t = new MessageTransmitter(tx, config("--gso", "4"))) {
            QuicConnection a = connection();
            QuicConnection b = connection();
            InetSocketAddress to = rx.localAddress();
            for (int k = 0; k < 10; k++) {
                t.add(datagram(1200, k), to, 0, a);
            }
            t.add(datagram(1200, 10), to, 0, b);
            t.flush();
            assertEquals(11, receive(rx, 11).size());
            assertEquals(4L, t.counters().get("messages_sent"), "4 + 4 + 2 of a, 1 of b");
            assertEquals(4L, t.counters().get("largest_gso_buffer"));
        }
    }

    @Test
    void sendmmsgSendsBatchesAndTheRestOnFlush() throws Exception {
        try (NativeDatagramPort tx = NativeDatagramPort.bind(ANY, 1 << 20, 1, false);
             NativeDatagramPort rx = NativeDatagramPort.bind(ANY, 1 << 20, 16, false);
             MessageTransmitter t = new MessageTransmitter(tx, config("--sendmmsg", "3"))) {
            QuicConnection c = connection();
            InetSocketAddress to = rx.localAddress();
            for (int k = 0; k < 7; k++) {
                t.add(datagram(300 + k, k), to, 0, c);
            }
            assertEquals(2L, t.counters().get("send_calls"), "two full batches of 3 went out before the flush");
            t.flush();
            List<int[]> got = receive(rx, 7);
            assertEquals(7, got.size());
            for (int k = 0; k < 7; k++) {
                assertEquals(300 + k, got.get(k)[0]);
            }
            assertEquals(3L, t.counters().get("send_calls"));
            assertEquals(7L, t.counters().get("messages_sent"));
        }
    }

    @Test
    void receiveBatchWithGroSplitsCoalescedDatagrams() throws Exception {
        try (NativeDatagramPort tx = NativeDatagramPort.bind(ANY, 1 << 20, 1, false);
             NativeDatagramPort rx = NativeDatagramPort.bind(ANY, 1 << 20, 8, true);
             MessageTransmitter t = new MessageTransmitter(tx, config("--gso", "16"))) {
            QuicConnection c = connection();
            InetSocketAddress to = rx.localAddress();
            for (int k = 0; k < 12; k++) {
                t.add(datagram(1400, k), to, 0, c);
            }
            t.flush();
            List<int[]> got = receive(rx, 12);
            assertEquals(12, got.size());
            assertTrue(got.stream().allMatch(g -> g[0] == 1400));
            assertTrue(rx.datagramsCoalesced() > 0, "loopback GRO coalesced the GSO buffer");
        }
    }

    /** The datagrams split from GRO messages of two senders each carry their own message's sender (read once per message). */
    @Test
    void groSplitDatagramsKeepTheirMessagesSourceAndTime() throws Exception {
        try (NativeDatagramPort tx = NativeDatagramPort.bind(ANY, 1 << 20, 1, false);
             NativeDatagramPort other = NativeDatagramPort.bind(ANY, 1 << 20, 1, false);
             NativeDatagramPort rx = NativeDatagramPort.bind(ANY, 1 << 20, 8, true);
             MessageTransmitter t = new MessageTransmitter(tx, config("--gso", "16"));
             MessageTransmitter u = new MessageTransmitter(other, config("--gso", "16"))) {
            QuicConnection c = connection();
            InetSocketAddress to = rx.localAddress();
            for (int k = 0; k < 8; k++) {
                t.add(datagram(1400, k), to, 0, c);
            }
            t.flush();
            for (int k = 8; k < 12; k++) {
                u.add(datagram(1400, k), to, 0, c);
            }
            u.flush();
            ByteBuffer buf = ByteBuffer.allocate(65536);
            List<InetSocketAddress> sources = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            for (int spins = 0; sources.size() < 12 && spins < 2000; spins++) {
                buf.clear();
                InetSocketAddress from = rx.receive(buf);
                if (from == null) {
                    rx.awaitReadable(1_000_000L);
                    continue;
                }
                sources.add(from);
                times.add(rx.lastReceiveTime());
            }
            assertEquals(12, sources.size());
            assertTrue(rx.datagramsCoalesced() > 0, "loopback GRO coalesced the GSO buffers");
            assertTrue(sources.subList(0, 8).stream().allMatch(tx.localAddress()::equals), sources.toString());
            assertTrue(sources.subList(8, 12).stream().allMatch(other.localAddress()::equals), sources.toString());
            assertTrue(times.stream().allMatch(x -> x > 0), times.toString());
        }
    }

    @Test
    void sendTimesTowardADeviceThatIgnoresThemStopBeforeSending() throws Exception {
        String why = KernelSupport.whyTxTimeIgnored(InetAddress.getByName("127.0.0.1"), TxTimeClock.MONOTONIC);
        Assumptions.assumeTrue(why != null, "lo has an fq or etf qdisc on this host");
        try (NativeDatagramPort tx = NativeDatagramPort.bind(ANY, 1 << 20, 1, false);
             NativeDatagramPort rx = NativeDatagramPort.bind(ANY, 1 << 20, 8, false);
             MessageTransmitter t = new MessageTransmitter(tx, config("--txtime", "on"))) {
            UnsupportedSendStrategyException e = assertThrows(UnsupportedSendStrategyException.class,
                    () -> t.add(datagram(100, 1), rx.localAddress(), System.nanoTime(), connection()));
            assertTrue(e.getMessage().contains("unpaced"), e.getMessage());
            t.flush();
            assertEquals(0L, t.counters().get("datagrams_sent"));
            assertEquals(0, receive(rx, 1).size());
        }
    }

    @Test
    void wakeupEndsAWait() throws Exception {
        try (NativeDatagramPort p = NativeDatagramPort.bind(ANY, 1 << 20, 1, false)) {
            Thread waker = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                p.wakeup();
            });
            long before = System.nanoTime();
            p.awaitReadable(60_000_000_000L);
            waker.join();
            assertTrue(System.nanoTime() - before < 60_000_000_000L, "the wait ended before its minute");
        }
    }
}
