package org.pacelab.net.pcap;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Synthesizes the IPv4 or IPv6 and UDP headers of a datagram seen by the tap, so that a LINKTYPE_RAW capture
 * carries real addresses and ports and Wireshark dissects QUIC on it. Checksums are computed
 * (RFC 791 header checksum, RFC 768 / RFC 8200 section 8.1 UDP checksum over the pseudo-header).
 */
public final class IpUdpHeaders {
    private IpUdpHeaders() {}

    public static final int IPV4_UDP_BYTES = 28;
    public static final int IPV6_UDP_BYTES = 48;

    /** Header bytes an IP/UDP datagram of this source adds to its payload. */
    public static int overhead(InetSocketAddress src) {
        return src.getAddress() instanceof Inet4Address ? IPV4_UDP_BYTES : IPV6_UDP_BYTES;
    }

    /** The headers for {@code payload} sent from {@code src} to {@code dst} (same address family), traffic class 0. */
    public static byte[] build(InetSocketAddress src, InetSocketAddress dst, ByteBuffer payload) {
        return build(src, dst, payload, 0);
    }

    /**
     * The headers for {@code payload} sent from {@code src} to {@code dst} with the given traffic class byte (IPv4
     * TOS, IPv6 Traffic Class; its low two bits are the ECN field).
     */
    public static byte[] build(InetSocketAddress src, InetSocketAddress dst, ByteBuffer payload, int trafficClass) {
        byte[] s = src.getAddress().getAddress(), d = dst.getAddress().getAddress();
        if (s.length != d.length) {
            s = mapped(s, d.length);
            d = mapped(d, s.length);
        }
        int len = payload.remaining();
        int udpLen = 8 + len;
        if (s.length == 4) {
            ByteBuffer h = ByteBuffer.allocate(IPV4_UDP_BYTES);
            h.put((byte) 0x45).put((byte) trafficClass).putShort((short) (20 + udpLen)).putShort((short) 0).putShort((short) 0x4000)
                    .put((byte) 64).put((byte) 17).putShort((short) 0).put(s).put(d);
            h.putShort(10, (short) checksum(fold(sum(h.array(), 0, 20, 0))));
            h.putShort((short) src.getPort()).putShort((short) dst.getPort()).putShort((short) udpLen).putShort((short) 0);
            long pseudo = sum(s, 0, 4, 0) + sum(d, 0, 4, 0) + 17 + udpLen;
            int c = checksum(fold(sumPayload(payload, sum(h.array(), 20, 8, pseudo))));
            h.putShort(26, (short) (c == 0 ? 0xffff : c));
            return h.array();
        }
        ByteBuffer h = ByteBuffer.allocate(IPV6_UDP_BYTES);
        h.putInt(0x60000000 | (trafficClass & 0xff) << 20).putShort((short) udpLen).put((byte) 17).put((byte) 64).put(s).put(d);
        h.putShort((short) src.getPort()).putShort((short) dst.getPort()).putShort((short) udpLen).putShort((short) 0);
        long pseudo = sum(s, 0, 16, 0) + sum(d, 0, 16, 0) + udpLen + 17;
        int c = checksum(fold(sumPayload(payload, sum(h.array(), 40, 8, pseudo))));
        h.putShort(46, (short) (c == 0 ? 0xffff : c));
        return h.array();
    }

    private static byte[] mapped(byte[] a, int len) {
        if (a.length == len || a.length != 4) return a;
        byte[] m = new byte[16];
        m[10] = (byte) 0xff; m[11] = (byte) 0xff;
        System.arraycopy(a, 0, m, 12, 4);
        return m;
    }

    private static long sum(byte[] b, int off, int len, long acc) {
        for (int i = 0; i + 1 < len; i += 2) acc += ((b[off + i] & 0xff) << 8) | (b[off + i + 1] & 0xff);
        if ((len & 1) != 0) acc += (b[off + len - 1] & 0xff) << 8;
        return acc;
    }

    /**
     * Adds the payload as big-endian 16-bit words. One's-complement sums may be formed over wider words and folded
     * afterwards (RFC 1071 §2(B)), so eight bytes are added at a time as two 32-bit words; at most 2^31 of them fit
     * in the accumulator, far more than any datagram has.
     */
    private static long sumPayload(ByteBuffer p, long acc) {
        int pos = p.position(), lim = p.limit();
        // the words are read in the native order: the sum of byte-swapped words is the byte-swapped sum (RFC 1071
        // §2(B)), so the folded sum is swapped back once; a big-endian getLong cost ~3 % of a C1-compiled
        // simulation's main thread, where its conversion is not inlined (docs/benchmarks.md, "Simulator")
        java.nio.ByteOrder nativeOrder = java.nio.ByteOrder.nativeOrder();
        boolean swapped = nativeOrder != java.nio.ByteOrder.BIG_ENDIAN;
        ByteBuffer b = p.order() == nativeOrder ? p : p.duplicate().order(nativeOrder);
        long words = 0;
        int i = pos;
        for (; i + 8 <= lim; i += 8) {
            long v = b.getLong(i);
            words += (v >>> 32) + (v & 0xffffffffL);
        }
        int folded = fold(words);
        acc += swapped ? Integer.reverseBytes(folded) >>> 16 : folded;
        for (; i + 1 < lim; i += 2) acc += ((p.get(i) & 0xff) << 8) | (p.get(i + 1) & 0xff);
        if (i < lim) acc += (p.get(i) & 0xff) << 8;
        return acc;
    }

    private static int fold(long s) {
        while ((s >>> 16) != 0) s = (s & 0xffff) + (s >>> 16);
        return (int) s;
    }

    private static int checksum(int folded) { return ~folded & 0xffff; }

    /** Whether the address is IPv6 (for callers choosing overheads). */
    public static boolean isV6(InetSocketAddress a) { return a.getAddress() instanceof Inet6Address; }
}
