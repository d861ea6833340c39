package org.pacelab.net.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The synthesized UDP checksum verifies (RFC 768: the sum over pseudo-header, header and data is all ones). */
class IpUdpChecksumProperties {

    @Property(tries = 300)
    void udpChecksumVerifiesForAnyPayloadAndOffset(@ForAll @Size(max = 2000) byte[] data,
                                                  @ForAll @IntRange(min = 0, max = 9) int offset, @ForAll boolean v6) {
        ByteBuffer buf = ByteBuffer.allocate(offset + data.length);
        buf.position(offset);
        buf.put(data);
        buf.position(offset);
        InetSocketAddress src = v6 ? new InetSocketAddress("fd77:1::1", 4433) : new InetSocketAddress("10.77.1.1", 4433);
        InetSocketAddress dst = v6 ? new InetSocketAddress("fd77:2::1", 50000) : new InetSocketAddress("10.77.2.1", 50000);
        byte[] h = IpUdpHeaders.build(src, dst, buf);
        assertEquals(offset, buf.position(), "the payload's position is not moved");
        int ipLen = v6 ? 40 : 20;
        byte[] s = src.getAddress().getAddress();
        byte[] d = dst.getAddress().getAddress();
        long sum = words(s, 0, s.length) + words(d, 0, d.length) + 17 + 8 + data.length;
        sum += words(h, ipLen, 8) + words(data, 0, data.length);
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        assertEquals(0xffff, sum);
    }

    /** The payload's byte order and kind (heap or direct) do not change the headers (the sum reads native-order words). */
    @Property(tries = 200)
    void headersDoNotDependOnThePayloadBuffersOrderOrKind(@ForAll @Size(max = 2000) byte[] data,
                                                         @ForAll @IntRange(min = 0, max = 9) int offset) {
        InetSocketAddress src = new InetSocketAddress("10.77.1.1", 4433);
        InetSocketAddress dst = new InetSocketAddress("10.77.2.1", 50000);
        byte[] expected = null;
        for (ByteBuffer buf : new ByteBuffer[] {ByteBuffer.allocate(offset + data.length),
                ByteBuffer.allocate(offset + data.length).order(java.nio.ByteOrder.LITTLE_ENDIAN),
                ByteBuffer.allocateDirect(offset + data.length),
                ByteBuffer.allocateDirect(offset + data.length).order(java.nio.ByteOrder.LITTLE_ENDIAN)}) {
            java.nio.ByteOrder order = buf.order();
            buf.position(offset);
            buf.put(data);
            buf.position(offset);
            byte[] h = IpUdpHeaders.build(src, dst, buf);
            assertEquals(order, buf.order(), "the payload's byte order is left as it was");
            if (expected == null) {
                expected = h;
            } else {
                org.junit.jupiter.api.Assertions.assertArrayEquals(expected, h);
            }
        }
    }

    private static long words(byte[] b, int off, int len) {
        long acc = 0;
        for (int i = 0; i < len; i += 2) {
            int hi = b[off + i] & 0xff;
            int lo = i + 1 < len ? b[off + i + 1] & 0xff : 0;
            acc += (hi << 8) | lo;
        }
        return acc;
    }
}
