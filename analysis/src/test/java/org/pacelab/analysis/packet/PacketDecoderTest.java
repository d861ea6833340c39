package org.pacelab.analysis.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pacelab.analysis.testing.Frames.*;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;
import org.pacelab.analysis.capture.CapturedFrame;

class PacketDecoderTest {
    private static final byte[] PAYLOAD = {1, 2, 3, 4, 5};

    private static DecodedPacket decode(int linkType, byte[] frame, ByteOrder order) {
        byte[] padded = new byte[frame.length + 7];
        System.arraycopy(frame, 0, padded, 3, frame.length);
        ByteBuffer b = ByteBuffer.wrap(padded).order(order);
        CapturedFrame f = new CapturedFrame().set(1, 0, linkType, b, 3, frame.length, frame.length, 0);
        DecodedPacket p = new DecodedPacket();
        PacketDecoder.decode(f, p);
        return p;
    }

    private static void assertUdp(DecodedPacket p, int version) {
        assertEquals(DecodedPacket.Status.OK, p.status());
        assertEquals(version, p.ipVersion());
        assertEquals(DecodedPacket.UDP, p.transport());
        assertEquals(4433, p.srcPort());
        assertEquals(50000, p.dstPort());
        assertEquals(PAYLOAD.length, p.payloadLength());
        assertEquals(PAYLOAD.length, p.capturedPayloadLength());
        assertEquals(1, p.buffer().get(p.payloadOffset()));
        assertEquals(5, p.buffer().get(p.payloadOffset() + 4));
    }

    @Test
    void everySupportedLinkTypeInBothBufferOrders() {
        byte[] v4 = ipv4(v4(1), v4(2), 17, udp(4433, 50000, PAYLOAD));
        byte[] v6 = ipv6(v6(1), v6(2), 17, udp(4433, 50000, PAYLOAD));
        for (ByteOrder o : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            assertUdp(decode(1, ethernet(0x0800, v4), o), 4);
            assertUdp(decode(1, ethernet(0x86DD, v6), o), 6);
            assertUdp(decode(1, ethernetVlan(0x0800, v4), o), 4);
            assertUdp(decode(113, sll(0x0800, v4), o), 4);
            assertUdp(decode(276, sll2(0x86DD, v6), o), 6);
            assertUdp(decode(101, v4, o), 4);
            assertUdp(decode(101, v6, o), 6);
            assertUdp(decode(228, v4, o), 4);
            assertUdp(decode(229, v6, o), 6);
            assertUdp(decode(0, nullLittleEndian(2, v4), o), 4);
            assertUdp(decode(0, nullLittleEndian(10, v6), o), 6);
            assertUdp(decode(108, loop(2, v4), o), 4);
            assertUdp(decode(108, loop(24, v6), o), 6);
        }
    }

    @Test
    void addressesBecomeEndpoints() throws Exception {
        DecodedPacket p = decode(1, ethernet(0x86DD, ipv6(v6(1), v6(2), 17, udp(4433, 50000, PAYLOAD))), ByteOrder.BIG_ENDIAN);
        Endpoint src = p.source();
        assertEquals(Endpoint.of(InetAddress.getByAddress(v6(1)), 4433), src);
        assertTrue(src.isSourceOf(p));
        assertTrue(p.destination().isDestinationOf(p));
        assertEquals("[fd00::1]:4433", src.toString());
        assertEquals("10.0.0.1:4433", decode(101, ipv4(v4(1), v4(2), 17, udp(4433, 50000, PAYLOAD)), ByteOrder.BIG_ENDIAN)
                .source().toString());
    }

    @Test
    void ipv6ExtensionHeadersAreSkippedToTcp() {
        byte[] tcp = tcp(443, 51000, 0xfffffff0L, 7, 0x18, PAYLOAD);
        byte[] hopByHop = concat(new byte[] {6, 0, 0, 0, 0, 0, 0, 0}, tcp); // next header TCP, 8 bytes
        DecodedPacket p = decode(101, ipv6(v6(1), v6(2), 0, hopByHop), ByteOrder.BIG_ENDIAN);
        assertEquals(DecodedPacket.Status.OK, p.status());
        assertEquals(DecodedPacket.TCP, p.transport());
        assertEquals(0xfffffff0L, p.tcpSeq());
        assertEquals(0x18, p.tcpFlags());
        assertEquals(5, p.payloadLength());
    }

    @Test
    void ethernetPaddingIsNotPayload() {
        byte[] frame = concat(ethernet(0x0800, ipv4(v4(1), v4(2), 17, udp(4433, 50000, PAYLOAD))), new byte[20]);
        assertEquals(PAYLOAD.length, decode(1, frame, ByteOrder.BIG_ENDIAN).payloadLength());
    }

    @Test
    void snapLengthShortensOnlyTheCapturedPayload() {
        byte[] frame = ethernet(0x0800, ipv4(v4(1), v4(2), 17, udp(4433, 50000, new byte[100])));
        byte[] cut = java.util.Arrays.copyOf(frame, 14 + 20 + 8 + 30);
        DecodedPacket p = decode(1, cut, ByteOrder.BIG_ENDIAN);
        assertEquals(100, p.payloadLength());
        assertEquals(30, p.capturedPayloadLength());
    }

    @Test
    void problemsAreClassified() {
        assertEquals(DecodedPacket.Status.UNSUPPORTED_LINK, decode(147, new byte[40], ByteOrder.BIG_ENDIAN).status());
        assertEquals(DecodedPacket.Status.NOT_IP, decode(1, ethernet(0x0806, new byte[28]), ByteOrder.BIG_ENDIAN).status());
        assertEquals(DecodedPacket.Status.TRUNCATED, decode(1, new byte[10], ByteOrder.BIG_ENDIAN).status());
        byte[] fragment = ipv4(v4(1), v4(2), 17, udp(1, 2, PAYLOAD));
        fragment[6] = 0x20; // more fragments
        assertEquals(DecodedPacket.Status.FRAGMENT, decode(101, fragment, ByteOrder.BIG_ENDIAN).status());
        assertEquals(DecodedPacket.Status.OTHER_TRANSPORT, decode(101, ipv4(v4(1), v4(2), 1, new byte[8]),
                ByteOrder.BIG_ENDIAN).status());
    }
}
