package org.pacelab.io.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.junit.jupiter.api.Test;

/**
 * When a datagram arrived: the native port takes the kernel's receive timestamp (SO_TIMESTAMPNS), so time the datagram
 * waited in the socket buffer counts; the JDK port can only tell when it read it. The native port also counts the
 * datagrams the kernel dropped on the socket (SO_RXQ_OVFL).
 */
class PortReceiveTimeTest {
    private static final long SECOND = 1_000_000_000L;
    /**
     * A larger move of the wall clock against the monotonic one during a try discards the try: a step that size could
     * hide the 200 ms the datagram waits. Smaller moves widen the bounds by as much (on CI's machine the wall clock
     * moved 1 ms against the monotonic one in every try).
     */
    private static final long CLOCK_STEP_TOLERANCE = 20_000_000L;

    /** CLOCK_REALTIME less System.nanoTime(): constant while nobody steps or slews the wall clock. */
    private static long wallLessMonotonic() {
        java.time.Instant wall = java.time.Instant.now();
        long monotonic = System.nanoTime();
        return wall.getEpochSecond() * SECOND + wall.getNano() - monotonic;
    }

    @Test
    void nativePortDatesADatagramByItsArrivalNotItsRead() throws Exception {
        try (NativeDatagramPort port = NativeDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 20, 4, false);
             DatagramChannel sender = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            // The first socket on a host to ask for timestamps switches the kernel's stamping on through a work queue: a
            // datagram that arrives before that is stamped when read. So up to 10 tries, each a datagram left waiting.
            boolean byArrival = false;
            String last = "";
            for (int attempt = 0; attempt < 10 && !byArrival; attempt++) {
                long wallLessMonotonicBefore = wallLessMonotonic();
                long beforeSend = System.nanoTime();
                sender.send(ByteBuffer.wrap(new byte[] {1}), port.localAddress());
                port.awaitReadable(5 * SECOND);
                long waiting = System.nanoTime(); // the datagram is in the socket buffer by now
                Thread.sleep(200); // it waits there, as behind a busy event loop
                long beforeRead = System.nanoTime();
                InetSocketAddress from = port.receive(ByteBuffer.allocate(100));
                long afterRead = System.nanoTime();
                assertNotNull(from);
                long arrival = port.lastReceiveTime();
                long clockStep = wallLessMonotonic() - wallLessMonotonicBefore;
                if (Math.abs(clockStep) > CLOCK_STEP_TOLERANCE) {
                    // the kernel stamps on the wall clock: when time sync steps it while the datagram waits, the
                    // arrival moves by as much; that try tells nothing about the port
                    last = "the wall clock moved " + clockStep + " ns against the monotonic one";
                    continue;
                }
                // a wall clock moved while the datagram waits moves the arrival by at most its move during the try (CI
                // saw an arrival 0.93 ms before its send, and later the wall clock moving 1 ms in each of ten tries)
                long slew = Math.abs(clockStep);
                assertTrue(arrival <= afterRead, "never later than the read");
                // a preemption between the port's two clock reads may make an arrival look later, never earlier: a Retry
                // token must not look issued after the Initial carrying it arrived
                assertTrue(arrival >= beforeSend - slew,
                        "arrival " + (beforeSend - arrival) + " ns before the send, the wall clock moved " + clockStep + " ns");
                byArrival = arrival <= waiting + slew;
                last = (waiting - arrival) + " ns before it was seen waiting, " + (beforeRead - arrival) + " ns before its read";
            }
            assertTrue(byArrival, "dated by its arrival, not by its read: " + last);
        }
    }

    @Test
    void arrivalIsTheReadTimeLessTheWaitAndNeverLaterThanTheRead() {
        long read = 5_000 * SECOND;
        long readEpoch = 1_800_000_000L * SECOND;
        assertEquals(read - 250_000_000L, NativeDatagramPort.arrival(readEpoch - 250_000_000L, read, readEpoch));
        assertEquals(read, NativeDatagramPort.arrival(0, read, readEpoch), "no kernel timestamp: the read time");
        assertEquals(read, NativeDatagramPort.arrival(readEpoch + SECOND, read, readEpoch), "a wall clock stepped back");
    }

    @Test
    void jdkPortDatesADatagramByItsRead() throws Exception {
        try (ChannelDatagramPort port = ChannelDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 16);
             DatagramChannel sender = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            sender.send(ByteBuffer.wrap(new byte[] {1}), port.localAddress());
            port.awaitReadable(5 * SECOND);
            long beforeRead = System.nanoTime();
            InetSocketAddress from = null;
            long deadline = beforeRead + 5 * SECOND;
            while (from == null && System.nanoTime() < deadline) {
                from = port.receive(ByteBuffer.allocate(100));
            }
            long afterRead = System.nanoTime();
            assertNotNull(from);
            assertTrue(port.lastReceiveTime() >= beforeRead && port.lastReceiveTime() <= afterRead);
            assertEquals(-1, port.receiveBufferDrops(), "the JDK socket cannot tell");
        }
    }

    @Test
    void nativePortCountsTheDatagramsTheKernelDroppedOnItsSocket() throws Exception {
        // the smallest buffer the kernel grants holds a few datagrams; the rest of a burst nobody reads is dropped
        try (NativeDatagramPort port = NativeDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1, 8, false);
             DatagramChannel sender = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            assertEquals(0, port.receiveBufferDrops(), "none yet");
            int sent = 0;
            for (int i = 0; i < 200; i++) {
                sender.send(ByteBuffer.allocate(1200), port.localAddress());
                sent++;
            }
            // the count comes with the next datagram queued after a drop: once the socket is drained, a last one, 7 bytes
            // long, read until seen
            int received = 0;
            boolean lastSent = false;
            boolean last = false;
            ByteBuffer b = ByteBuffer.allocate(2048);
            long deadline = System.nanoTime() + 10 * SECOND;
            while (!last && System.nanoTime() < deadline) {
                if (port.receive(b.clear()) == null) {
                    if (!lastSent) {
                        sender.send(ByteBuffer.allocate(7), port.localAddress());
                        sent++;
                        lastSent = true;
                    }
                    port.awaitReadable(50_000_000L);
                    continue;
                }
                received++;
                last = b.position() == 7;
            }
            assertTrue(last, "the last datagram arrived");
            assertTrue(port.receiveBufferDrops() > 0, "drops counted: " + port.receiveBufferDrops());
            assertEquals(sent, received + port.receiveBufferDrops(), "every datagram read or counted as dropped");
        }
    }
}
