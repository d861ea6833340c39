package org.pacelab.net.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The native memory of one sendmmsg(2)/recvmmsg(2) call, laid out as the kernel reads and writes it (LP64 Linux): an
 * array of {@code struct mmsghdr}, and per message one iovec pointing at its own 64 KiB data buffer, a sockaddr
 * and a control area. {@link IncomingMessages} and {@link OutgoingMessages} give it meaning. Single-threaded.
 */
final class MessageHeaders implements AutoCloseable {
    static final int MMSGHDR = 64;
    static final int IOVEC = 16;
    static final int NAME = 32;
    static final int DATA = 65536;
    /** Offsets in a {@code struct mmsghdr}: msg_hdr's fields, then msg_len. */
    private static final int NAME_PTR = 0, NAME_LEN = 8, IOV_PTR = 16, IOV_LEN = 24, CONTROL_PTR = 32, CONTROL_LEN = 40,
            FLAGS = 48, MSG_LEN = 56;

    final int capacity;
    final int controlBytes;
    final MemorySegment headers;
    final MemorySegment controls;
    final MemorySegment data;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment iovecs;
    private final MemorySegment names;
    private boolean closed;

    /**
     * @param capacity messages per call, 1..1024
     * @param controlBytes room for control messages per message
     */
    MessageHeaders(int capacity, int controlBytes) {
        if (capacity < 1 || capacity > 1024) {
            throw new IllegalArgumentException("messages per call must be 1..1024, not " + capacity);
        }
        this.capacity = capacity;
        this.controlBytes = controlBytes;
        headers = arena.allocate((long) MMSGHDR * capacity, 8);
        iovecs = arena.allocate((long) IOVEC * capacity, 8);
        names = arena.allocate((long) NAME * capacity, 8);
        controls = arena.allocate((long) controlBytes * capacity, 8);
        data = arena.allocate((long) DATA * capacity, 16);
        for (int i = 0; i < capacity; i++) {
            MemorySegment iov = iovecs.asSlice((long) IOVEC * i, IOVEC);
            iov.set(ValueLayout.ADDRESS, 0, data.asSlice((long) DATA * i, DATA));
            iov.set(ValueLayout.JAVA_LONG, 8, DATA);
        }
    }

    /** Message {@code i}'s sockaddr area. */
    MemorySegment name(int i) {
        return names.asSlice((long) NAME * i, NAME);
    }

    /** The first {@code length} bytes of message {@code i}'s data buffer. */
    MemorySegment data(int i, int length) {
        return data.asSlice((long) DATA * i, length);
    }

    /** Offset of message {@code i}'s data buffer in {@link #data}. */
    static long dataOffset(int i) {
        return (long) DATA * i;
    }

    /** Offset of message {@code i}'s control area in {@link #controls}. */
    long controlOffset(int i) {
        return (long) controlBytes * i;
    }

    /**
     * Sets message {@code i}'s header for a call: its sockaddr of {@code nameLength} bytes, its one iovec of
     * {@code dataLength} bytes, its control area of {@code controlLength} bytes (none when 0), flags and msg_len 0.
     */
    void set(int i, int nameLength, long dataLength, long controlLength) {
        long h = (long) MMSGHDR * i;
        MemorySegment iov = iovecs.asSlice((long) IOVEC * i, IOVEC);
        iov.set(ValueLayout.JAVA_LONG, 8, dataLength);
        headers.set(ValueLayout.ADDRESS, h + NAME_PTR, name(i));
        headers.set(ValueLayout.JAVA_INT, h + NAME_LEN, nameLength);
        headers.set(ValueLayout.ADDRESS, h + IOV_PTR, iov);
        headers.set(ValueLayout.JAVA_LONG, h + IOV_LEN, 1);
        headers.set(ValueLayout.ADDRESS, h + CONTROL_PTR,
                controlLength > 0 ? controls.asSlice(controlOffset(i), controlBytes) : MemorySegment.NULL);
        headers.set(ValueLayout.JAVA_LONG, h + CONTROL_LEN, controlLength);
        headers.set(ValueLayout.JAVA_INT, h + FLAGS, 0);
        headers.set(ValueLayout.JAVA_INT, h + MSG_LEN, 0);
    }

    /** Bytes the kernel received into message {@code i} (msg_len). */
    int receivedLength(int i) {
        return headers.get(ValueLayout.JAVA_INT, (long) MMSGHDR * i + MSG_LEN);
    }

    /** Bytes of control messages the kernel wrote for message {@code i} (msg_controllen after a receive). */
    long controlLength(int i) {
        return headers.get(ValueLayout.JAVA_LONG, (long) MMSGHDR * i + CONTROL_LEN);
    }

    /** The header array from message {@code from} on. */
    MemorySegment headersFrom(int from) {
        return headers.asSlice((long) MMSGHDR * from);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
