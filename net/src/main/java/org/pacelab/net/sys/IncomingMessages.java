package org.pacelab.net.sys;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;

/**
 * Receive buffers for one recvmmsg(2) call: per message a 64 KiB buffer, a sockaddr and a control area, in the
 * layout the kernel writes. With UDP GRO on the socket one buffer may hold several datagrams of the same sender,
 * coalesced by the kernel: {@link #segmentSize} then says how long each (but the last) is. With IP_RECVTOS /
 * IPV6_RECVTCLASS on the socket {@link #trafficClass} gives each message's traffic class (ECN field), with
 * SO_TIMESTAMPNS {@link #kernelTimeNanos} its kernel receive time, with SO_RXQ_OVFL {@link #socketDrops} the socket's
 * receive drops so far. Single-threaded.
 */
public final class IncomingMessages implements AutoCloseable {
    /** Room for IP_TOS (24 bytes), UDP_GRO (24), SCM_TIMESTAMPNS (32) and SO_RXQ_OVFL (24) control messages. */
    private static final int CONTROL = 128;

    private final int capacity;
    private final MessageHeaders messages;
    private final MemorySegment controls;
    private int count;

    /** @param capacity datagrams (or GRO buffers) per call */
    public IncomingMessages(int capacity) {
        messages = new MessageHeaders(capacity, CONTROL);
        this.capacity = capacity;
        controls = messages.controls;
    }

    public int capacity() { return capacity; }

    /** Messages the last receive filled. */
    public int count() { return count; }

    /** Bytes received in message {@code i}. */
    public int length(int i) {
        check(i);
        return messages.receivedLength(i);
    }

    /** Message {@code i}'s bytes (valid until the next receive). */
    public MemorySegment data(int i) {
        return messages.data(i, length(i));
    }

    public InetSocketAddress source(int i) {
        check(i);
        return SocketAddresses.decode(messages.name(i));
    }

    /**
     * The size of each coalesced datagram in message {@code i} (the UDP_GRO control message), or its whole
     * length when the kernel did not coalesce.
     */
    public int segmentSize(int i) {
        long at = controlData(i, Libc.SOL_UDP, Libc.UDP_GRO, 4);
        if (at < 0) {
            return length(i);
        }
        int size = controls.get(ValueLayout.JAVA_INT, at);
        return size > 0 ? size : length(i);
    }

    /**
     * The traffic class byte message {@code i} arrived with (IP_TOS, one byte, or IPV6_TCLASS, an int), or -1 when the
     * kernel gave none (the socket did not ask for it).
     */
    public int trafficClass(int i) {
        long at = controlData(i, Libc.IPPROTO_IP, Libc.IP_TOS, 1);
        if (at >= 0) {
            return controls.get(ValueLayout.JAVA_BYTE, at) & 0xff;
        }
        at = controlData(i, Libc.IPPROTO_IPV6, Libc.IPV6_TCLASS, 4);
        return at < 0 ? -1 : controls.get(ValueLayout.JAVA_INT, at) & 0xff;
    }

    /**
     * The kernel's receive time of message {@code i} (SCM_TIMESTAMPNS: CLOCK_REALTIME, ns since the epoch), or 0 when
     * the kernel gave none (the socket did not ask for it with SO_TIMESTAMPNS).
     */
    public long kernelTimeNanos(int i) {
        long at = controlData(i, Libc.SOL_SOCKET, Libc.SO_TIMESTAMPNS, 16);
        return at < 0 ? 0 : controls.get(ValueLayout.JAVA_LONG, at) * 1_000_000_000L + controls.get(ValueLayout.JAVA_LONG, at + 8);
    }

    /**
     * How many datagrams the socket had dropped (receive buffer full) when message {@code i} was queued (SO_RXQ_OVFL, an
     * unsigned 32-bit count that wraps), or -1 when the kernel sent no count (none dropped yet, or not asked for).
     */
    public long socketDrops(int i) {
        long at = controlData(i, Libc.SOL_SOCKET, Libc.SO_RXQ_OVFL, 4);
        return at < 0 ? -1 : controls.get(ValueLayout.JAVA_INT, at) & 0xffffffffL;
    }

    /** The offset in {@code controls} of the data of message {@code i}'s control message (level, type), or -1. */
    private long controlData(int i, int wantLevel, int wantType, int minData) {
        check(i);
        long controlLen = messages.controlLength(i);
        long base = messages.controlOffset(i);
        long off = 0;
        while (off + 16 <= controlLen) {
            long cmsgLen = controls.get(ValueLayout.JAVA_LONG, base + off);
            if (cmsgLen < 16 || off + cmsgLen > controlLen) {
                break;
            }
            int level = controls.get(ValueLayout.JAVA_INT, base + off + 8);
            int type = controls.get(ValueLayout.JAVA_INT, base + off + 12);
            if (level == wantLevel && type == wantType && cmsgLen >= 16 + minData) {
                return base + off + 16;
            }
            off += (cmsgLen + 7) & ~7L;
        }
        return -1;
    }

    /** Prepares the headers for a receive of up to {@link #capacity()} messages. */
    MemorySegment prepare() {
        count = 0;
        for (int i = 0; i < capacity; i++) {
            messages.set(i, MessageHeaders.NAME, MessageHeaders.DATA, CONTROL);
        }
        return messages.headers;
    }

    void received(int n) {
        count = n;
    }

    private void check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("message " + i + " of " + count);
        }
    }

    @Override
    public void close() {
        messages.close();
    }
}
