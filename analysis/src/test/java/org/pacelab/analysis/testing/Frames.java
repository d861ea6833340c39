package org.pacelab.analysis.testing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** Builds link-layer frames around IP packets, for tests. */
public final class Frames {
    private Frames() {}

    public static byte[] ipv4(byte[] src, byte[] dst, int protocol, byte[] transport) {
        ByteBuffer b = ByteBuffer.allocate(20 + transport.length);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + transport.length)).putShort((short) 1)
                .putShort((short) 0x4000).put((byte) 64).put((byte) protocol).putShort((short) 0).put(src).put(dst).put(transport);
        return b.array();
    }

    public static byte[] ipv6(byte[] src, byte[] dst, int nextHeader, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(40 + payload.length);
        b.putInt(0x60000000).putShort((short) payload.length).put((byte) nextHeader).put((byte) 64).put(src).put(dst).put(payload);
        return b.array();
    }

    public static byte[] udp(int srcPort, int dstPort, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(8 + payload.length);
        b.putShort((short) srcPort).putShort((short) dstPort).putShort((short) (8 + payload.length)).putShort((short) 0).put(payload);
        return b.array();
    }

    public static byte[] tcp(int srcPort, int dstPort, long seq, long ack, int flags, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(20 + payload.length);
        b.putShort((short) srcPort).putShort((short) dstPort).putInt((int) seq).putInt((int) ack)
                .put((byte) 0x50).put((byte) flags).putShort((short) 65535).putInt(0).put(payload);
        return b.array();
    }

    public static byte[] ethernet(int etherType, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(14 + payload.length);
        b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) etherType).put(payload);
        return b.array();
    }

    public static byte[] ethernetVlan(int etherType, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(18 + payload.length);
        b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) 0x8100).putShort((short) 42)
                .putShort((short) etherType).put(payload);
        return b.array();
    }

    public static byte[] sll(int protocol, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(16 + payload.length);
        b.putShort((short) 0).putShort((short) 772).putShort((short) 6).put(new byte[8]).putShort((short) protocol).put(payload);
        return b.array();
    }

    public static byte[] sll2(int protocol, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(20 + payload.length);
        b.putShort((short) protocol).putShort((short) 0).putInt(1).putShort((short) 772).put((byte) 0).put((byte) 6)
                .put(new byte[8]).put(payload);
        return b.array();
    }

    /** BSD loopback header: the family in little-endian (as written by a little-endian host). */
    public static byte[] nullLittleEndian(int family, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(4 + payload.length);
        b.put((byte) family).put((byte) 0).put((byte) 0).put((byte) 0).put(payload);
        return b.array();
    }

    public static byte[] loop(int family, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(4 + payload.length);
        b.putInt(family).put(payload);
        return b.array();
    }

    /** Ethernet/IPv4/UDP frame between 10.0.0.x addresses. */
    public static byte[] udpOverEthernet(int srcHost, int srcPort, int dstHost, int dstPort, byte[] payload) {
        return ethernet(0x0800, ipv4(v4(srcHost), v4(dstHost), 17, udp(srcPort, dstPort, payload)));
    }

    public static byte[] v4(int host) {
        return new byte[] {10, 0, 0, (byte) host};
    }

    public static byte[] v6(int host) {
        byte[] a = new byte[16];
        a[0] = (byte) 0xfd;
        a[15] = (byte) host;
        return a;
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }
}
