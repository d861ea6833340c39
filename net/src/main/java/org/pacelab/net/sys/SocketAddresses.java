package org.pacelab.net.sys;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/** Encodes and decodes Linux sockaddr_in / sockaddr_in6. */
final class SocketAddresses {
    private SocketAddresses() {}

    static final int SOCKADDR_MAX = 28;
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Writes {@code a} into {@code seg}; returns the sockaddr length. IPv4 addresses on a v6 socket are v4-mapped. */
    static int encode(InetSocketAddress a, MemorySegment seg, int family) {
        seg.fill((byte) 0);
        InetAddress ip = a.getAddress();
        if (family == Libc.AF_INET) {
            seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) Libc.AF_INET);
            seg.set(BE_SHORT, 2, (short) a.getPort());
            MemorySegment.copy(ip.getAddress(), 0, seg, ValueLayout.JAVA_BYTE, 4, 4);
            return 16;
        }
        seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) Libc.AF_INET6);
        seg.set(BE_SHORT, 2, (short) a.getPort());
        byte[] b = ip.getAddress();
        if (b.length == 4) {
            seg.set(ValueLayout.JAVA_BYTE, 8 + 10, (byte) 0xff);
            seg.set(ValueLayout.JAVA_BYTE, 8 + 11, (byte) 0xff);
            MemorySegment.copy(b, 0, seg, ValueLayout.JAVA_BYTE, 8 + 12, 4);
        } else {
            MemorySegment.copy(b, 0, seg, ValueLayout.JAVA_BYTE, 8, 16);
            if (ip instanceof Inet6Address v6) seg.set(ValueLayout.JAVA_INT_UNALIGNED, 24, v6.getScopeId());
        }
        return 28;
    }

    static InetSocketAddress decode(MemorySegment seg) {
        int family = seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0);
        int port = seg.get(BE_SHORT, 2) & 0xffff;
        try {
            if (family == Libc.AF_INET) {
                byte[] b = new byte[4];
                MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 4, b, 0, 4);
                return new InetSocketAddress(InetAddress.getByAddress(b), port);
            }
            byte[] b = new byte[16];
            MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 8, b, 0, 16);
            InetAddress ip = InetAddress.getByAddress(b); // v4-mapped addresses come back as Inet4Address
            return new InetSocketAddress(ip, port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    static int family(InetSocketAddress a) {
        return a.getAddress() instanceof Inet4Address ? Libc.AF_INET : Libc.AF_INET6;
    }
}
