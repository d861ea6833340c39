package org.pacelab.io.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.junit.jupiter.api.Test;

/** The native port reports each datagram's ECN field (RFC 9000 §13.4.1); the JDK port cannot and says so. */
class PortTrafficClassTest {
    @Test
    void nativePortTellsTheEcnCodepointOfEachDatagram() throws Exception {
        try (NativeDatagramPort port = NativeDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 20, 4, false);
             DatagramChannel sender = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            port.enableTrafficClass();
            int[] marks = {0x02, 0x03, 0x00};
            for (int mark : marks) {
                sender.setOption(StandardSocketOptions.IP_TOS, mark);
                sender.send(ByteBuffer.wrap(new byte[] {(byte) mark}), port.localAddress());
            }
            ByteBuffer b = ByteBuffer.allocate(100);
            for (int mark : marks) {
                InetSocketAddress from = null;
                long deadline = System.nanoTime() + 2_000_000_000L;
                while (from == null && System.nanoTime() < deadline) {
                    b.clear();
                    from = port.receive(b);
                    if (from == null) {
                        port.awaitReadable(10_000_000L);
                    }
                }
                assertNotNull(from);
                assertEquals(mark, port.lastTrafficClass() & 3);
            }
        }
    }

    @Test
    void jdkPortCannotTell() throws Exception {
        try (ChannelDatagramPort port = ChannelDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 16)) {
            assertEquals(-1, port.lastTrafficClass());
        }
    }
}
