package org.pacelab.net.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** sendmsg/sendmmsg with GSO and SCM_TXTIME, recvmmsg with and without GRO, on loopback. */
class UdpMessagesTest {
    private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);

    private static ByteBuffer pattern(int length, int seed) {
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            b.put((byte) (seed + i * 7));
        }
        return b.flip();
    }

    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    /** Receives until {@code expected} bytes arrived or 2 s passed; returns the datagram lengths seen. */
    private static List<Integer> receiveAll(UdpSocket rx, IncomingMessages in, int expected, List<byte[]> payloads)
            throws Exception {
        List<Integer> lengths = new ArrayList<>();
        int total = 0;
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (total < expected && System.nanoTime() < deadline) {
            int n = rx.receive(in);
            for (int i = 0; i < n; i++) {
                int len = in.length(i);
                int seg = in.segmentSize(i);
                byte[] all = bytes(in.data(i));
                for (int off = 0; off < len; off += seg) {
                    int l = Math.min(seg, len - off);
                    lengths.add(l);
                    payloads.add(java.util.Arrays.copyOfRange(all, off, off + l));
                }
                total += len;
            }
            if (n == 0) {
                Thread.sleep(1);
            }
        }
        return lengths;
    }

    @Test
    void sendmmsgDeliversEachMessage() throws Exception {
        try (UdpSocket tx = UdpSocket.bind(ANY, "tx"); UdpSocket rx = UdpSocket.bind(ANY, "rx");
             OutgoingMessages out = new OutgoingMessages(4); IncomingMessages in = new IncomingMessages(8)) {
            for (int k = 0; k < 3; k++) {
                int i = out.open(rx.localAddress(), tx.family());
                out.append(i, pattern(100 + k, k));
            }
            assertEquals(3, tx.send(out, 0));
            List<byte[]> got = new ArrayList<>();
            assertEquals(List.of(100, 101, 102), receiveAll(rx, in, 303, got));
            for (int k = 0; k < 3; k++) {
                assertEquals(pattern(100 + k, k), ByteBuffer.wrap(got.get(k)));
            }
            assertEquals(tx.localAddress(), in.source(0));
        }
    }

    @Test
    void gsoBufferArrivesAsSegmentsWithoutGro() throws Exception {
        try (UdpSocket tx = UdpSocket.bind(ANY, "tx"); UdpSocket rx = UdpSocket.bind(ANY, "rx");
             OutgoingMessages out = new OutgoingMessages(1); IncomingMessages in = new IncomingMessages(8)) {
            int i = out.open(rx.localAddress(), tx.family());
            ByteBuffer whole = pattern(2500, 3);
            out.append(i, whole.duplicate());
            out.segmentSize(i, 1000);
            assertEquals(1, tx.send(out, 0));
            List<byte[]> got = new ArrayList<>();
            assertEquals(List.of(1000, 1000, 500), receiveAll(rx, in, 2500, got));
            ByteBuffer joined = ByteBuffer.allocate(2500);
            got.forEach(joined::put);
            assertEquals(whole, joined.flip());
        }
    }

    @Test
    void groCoalescesAndReportsTheSegmentSize() throws Exception {
        try (UdpSocket tx = UdpSocket.bind(ANY, "tx"); UdpSocket rx = UdpSocket.bind(ANY, "rx");
             OutgoingMessages out = new OutgoingMessages(1); IncomingMessages in = new IncomingMessages(8)) {
            assertTrue(rx.enableGro(), "UDP_GRO is available on this kernel (PEERS.md)");
            int i = out.open(rx.localAddress(), tx.family());
            out.append(i, pattern(4000, 9));
            out.segmentSize(i, 1000);
            assertEquals(1, tx.send(out, 0));
            List<byte[]> got = new ArrayList<>();
            List<Integer> lengths = receiveAll(rx, in, 4000, got);
            assertEquals(List.of(1000, 1000, 1000, 1000), lengths);
            ByteBuffer joined = ByteBuffer.allocate(4000);
            got.forEach(joined::put);
            assertEquals(pattern(4000, 9), joined.flip());
        }
    }

    @Test
    void txTimeNeedsTheSocketOption() throws Exception {
        try (UdpSocket tx = UdpSocket.bind(ANY, "tx"); UdpSocket rx = UdpSocket.bind(ANY, "rx");
             OutgoingMessages out = new OutgoingMessages(1); IncomingMessages in = new IncomingMessages(4)) {
            int i = out.open(rx.localAddress(), tx.family());
            out.append(i, pattern(64, 1));
            out.txTime(i, Libc.clockGettime(Libc.CLOCK_MONOTONIC));
            SysException e = assertThrows(SysException.class, () -> tx.send(out, 0));
            assertEquals(Libc.EINVAL, e.errno(), "SCM_TXTIME without SO_TXTIME is refused");
            assertEquals(0, tx.enableTxTime(Libc.CLOCK_MONOTONIC));
            assertEquals(1, tx.send(out, 0));
            assertEquals(List.of(64), receiveAll(rx, in, 64, new ArrayList<>()));
        }
    }

    @Test
    void messagesCarryEveryControlMessage() {
        try (OutgoingMessages out = new OutgoingMessages(2)) {
            int i = out.open(new InetSocketAddress("127.0.0.1", 9), Libc.AF_INET);
            out.append(i, pattern(3000, 0));
            out.segmentSize(i, 1452);
            out.txTime(i, 123);
            out.pacingRate(i, 5_000_000);
            out.trafficClass(i, 2);
            assertThrows(IllegalStateException.class, () -> out.txTime(i, 1), "four control messages fill the area");
            assertThrows(IllegalArgumentException.class, () -> out.append(i, ByteBuffer.allocate(OutgoingMessages.MAX_MESSAGE_BYTES)));
            assertEquals(3000, out.length(i));
            out.open(new InetSocketAddress("127.0.0.1", 9), Libc.AF_INET);
            assertTrue(out.isFull());
            assertThrows(IllegalStateException.class, () -> out.open(new InetSocketAddress("127.0.0.1", 9), Libc.AF_INET));
            out.clear();
            assertTrue(out.isEmpty());
        }
    }

    @Test
    void trafficClassTravelsPerMessageBothFamilies() throws Exception {
        for (String host : new String[] {"127.0.0.1", "::1"}) {
            InetSocketAddress any = new InetSocketAddress(host, 0);
            try (UdpSocket tx = UdpSocket.bind(any, "tx"); UdpSocket rx = UdpSocket.bind(any, "rx");
                 OutgoingMessages out = new OutgoingMessages(4); IncomingMessages in = new IncomingMessages(4)) {
                assertTrue(rx.enableTrafficClass());
                int[] marks = {0x02, 0x01, 0x00, 0x03};   // ECT(0), ECT(1), Not-ECT, CE
                for (int mark : marks) {
                    int i = out.open(rx.localAddress(), tx.family());
                    out.append(i, pattern(100, mark));
                    out.trafficClass(i, mark);
                }
                assertEquals(4, tx.send(out, 0));
                List<Integer> seen = new ArrayList<>();
                long deadline = System.nanoTime() + 2_000_000_000L;
                while (seen.size() < 4 && System.nanoTime() < deadline) {
                    int n = rx.receive(in);
                    for (int i = 0; i < n; i++) {
                        seen.add(in.trafficClass(i) & 3);
                    }
                }
                assertEquals(List.of(2, 1, 0, 3), seen, host);
            }
        }
    }

    @Test
    void withoutAskingNoTrafficClassIsReported() throws Exception {
        try (UdpSocket tx = UdpSocket.bind(ANY, "tx"); UdpSocket rx = UdpSocket.bind(ANY, "rx");
             IncomingMessages in = new IncomingMessages(1)) {
            assertEquals(0, tx.setTrafficClass(2));
            tx.send(pattern(10, 1), rx.localAddress());
            int n = 0;
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (n == 0 && System.nanoTime() < deadline) {
                n = rx.receive(in);
            }
            assertEquals(1, n);
            assertEquals(-1, in.trafficClass(0));
        }
    }
}
