package org.pacelab.net.sys;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * UDP messages for one sendmsg(2) or sendmmsg(2) call, in native memory laid out as the kernel reads it: an array
 * of {@code struct mmsghdr}, and per message one iovec, a sockaddr, a data buffer and a control area. A message is
 * one datagram, or several equal-size segments the kernel splits (UDP GSO, a {@code UDP_SEGMENT} control message),
 * and may carry a send time ({@code SCM_TXTIME}) and a GSO pacing rate ({@code UDP_SEGMENT_PACING_RATE}, the QUIC
 * Steps study's kernel patch). Single-threaded; reused after {@link #clear()}. LP64 Linux layouts.
 */
public final class OutgoingMessages implements AutoCloseable {
    /** Largest payload of one message: a GSO buffer's IPv4 limit (65535 − 20 − 8). */
    public static final int MAX_MESSAGE_BYTES = 65507;

    private static final int CMSG_HEADER = 16;
    /** CMSG_SPACE of a u16 and of a u64 on LP64: 16 + 8. */
    private static final int CMSG_SPACE_SMALL = 24;
    private static final int CONTROL = 4 * CMSG_SPACE_SMALL;

    private final int capacity;
    private final MessageHeaders messages;
    private final MemorySegment controls;
    private final MemorySegment data;
    private final int[] nameLengths;
    private final int[] lengths;
    private final int[] controlLengths;
    private final int[] families;
    private int count;

    /** @param capacity messages per call (1 for sendmsg) */
    public OutgoingMessages(int capacity) {
        messages = new MessageHeaders(capacity, CONTROL);
        this.capacity = capacity;
        controls = messages.controls;
        data = messages.data;
        nameLengths = new int[capacity];
        lengths = new int[capacity];
        controlLengths = new int[capacity];
        families = new int[capacity];
    }

    public int capacity() { return capacity; }

    /** Messages opened since the last {@link #clear()}. */
    public int count() { return count; }

    public boolean isFull() { return count == capacity; }

    public boolean isEmpty() { return count == 0; }

    /** Forgets every message. */
    public void clear() {
        count = 0;
    }

    /**
     * Opens a new, empty message to {@code to} for a socket of {@code family} ({@link Libc#AF_INET} or
     * {@link Libc#AF_INET6}); returns its index.
     */
    public int open(InetSocketAddress to, int family) {
        if (count == capacity) {
            throw new IllegalStateException("all " + capacity + " messages are in use; send them first");
        }
        int i = count++;
        nameLengths[i] = SocketAddresses.encode(to, messages.name(i), family);
        lengths[i] = 0;
        controlLengths[i] = 0;
        families[i] = family;
        return i;
    }

    /** Appends the bytes of {@code src} (position to limit) to message {@code i}; moves src's position to its limit. */
    public void append(int i, ByteBuffer src) {
        check(i);
        int n = src.remaining();
        if (lengths[i] + n > MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("message " + i + " would hold " + (lengths[i] + n) + " bytes; at most "
                    + MAX_MESSAGE_BYTES);
        }
        MemorySegment.copy(MemorySegment.ofBuffer(src), 0, data, MessageHeaders.dataOffset(i) + lengths[i], n);
        lengths[i] += n;
        src.position(src.limit());
    }

    /** Bytes in message {@code i}. */
    public int length(int i) {
        check(i);
        return lengths[i];
    }

    /** Message {@code i}'s bytes (a view valid until the message is reused). */
    public MemorySegment data(int i) {
        check(i);
        return messages.data(i, lengths[i]);
    }

    /** The kernel splits message {@code i} into segments of {@code size} bytes (UDP GSO; the last may be shorter). */
    public void segmentSize(int i, int size) {
        if (size < 1 || size > 0xffff) {
            throw new IllegalArgumentException("GSO segment size must be 1..65535, not " + size);
        }
        MemorySegment c = control(i, 2);
        c.set(ValueLayout.JAVA_INT, 8, Libc.SOL_UDP);
        c.set(ValueLayout.JAVA_INT, 12, Libc.UDP_SEGMENT);
        c.set(ValueLayout.JAVA_SHORT, CMSG_HEADER, (short) size);
    }

    /** Message {@code i} leaves at {@code nanos} of the socket's SO_TXTIME clock (SCM_TXTIME). */
    public void txTime(int i, long nanos) {
        MemorySegment c = control(i, 8);
        c.set(ValueLayout.JAVA_INT, 8, Libc.SOL_SOCKET);
        c.set(ValueLayout.JAVA_INT, 12, Libc.SCM_TXTIME);
        c.set(ValueLayout.JAVA_LONG, CMSG_HEADER, nanos);
    }

    /**
     * The kernel paces message {@code i}'s GSO segments at {@code bytesPerSecond} (control message SOL_UDP /
     * {@link Libc#UDP_SEGMENT_PACING_RATE}, u64; only kernels with the QUIC Steps study's patch accept it).
     */
    public void pacingRate(int i, long bytesPerSecond) {
        MemorySegment c = control(i, 8);
        c.set(ValueLayout.JAVA_INT, 8, Libc.SOL_UDP);
        c.set(ValueLayout.JAVA_INT, 12, Libc.UDP_SEGMENT_PACING_RATE);
        c.set(ValueLayout.JAVA_LONG, CMSG_HEADER, bytesPerSecond);
    }

    /**
     * Message {@code i} (every GSO segment of it) carries this IP traffic class byte, whose low two bits are the ECN
     * codepoint (RFC 3168): IP_TOS on an IPv4 socket, IPV6_TCLASS on an IPv6 one, an int each.
     */
    public void trafficClass(int i, int trafficClass) {
        if (trafficClass < 0 || trafficClass > 0xff) {
            throw new IllegalArgumentException("a traffic class is one byte, not " + trafficClass);
        }
        MemorySegment c = control(i, 4);
        boolean v6 = families[i] == Libc.AF_INET6;
        c.set(ValueLayout.JAVA_INT, 8, v6 ? Libc.IPPROTO_IPV6 : Libc.IPPROTO_IP);
        c.set(ValueLayout.JAVA_INT, 12, v6 ? Libc.IPV6_TCLASS : Libc.IP_TOS);
        c.set(ValueLayout.JAVA_INT, CMSG_HEADER, trafficClass);
    }

    /** Appends a control message with {@code dataBytes} of data to message {@code i}; returns it (header unset but length). */
    private MemorySegment control(int i, int dataBytes) {
        check(i);
        int space = CMSG_HEADER + ((dataBytes + 7) & ~7);
        if (controlLengths[i] + space > CONTROL) {
            throw new IllegalStateException("message " + i + " has no room for another control message");
        }
        MemorySegment c = controls.asSlice(messages.controlOffset(i) + controlLengths[i], space);
        c.fill((byte) 0);
        c.set(ValueLayout.JAVA_LONG, 0, CMSG_HEADER + dataBytes);
        controlLengths[i] += space;
        return c;
    }

    /** Fills the mmsghdr array for messages [from, count) and returns its start. */
    MemorySegment headersFrom(int from) {
        for (int i = from; i < count; i++) {
            messages.set(i, nameLengths[i], lengths[i], controlLengths[i]);
        }
        return messages.headersFrom(from);
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
