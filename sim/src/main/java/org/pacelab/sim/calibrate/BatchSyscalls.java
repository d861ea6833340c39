package org.pacelab.sim.calibrate;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import org.pacelab.net.sys.Libc;

/**
 * The batched UDP system calls the calibration times, through FFM on a connected socket: {@code sendmmsg},
 * {@code sendmsg} with a {@code UDP_SEGMENT} control message (GSO), and {@code recvmmsg}. x86-64 Linux layouts:
 * {@code struct msghdr} is 56 bytes, {@code struct mmsghdr} 64, {@code struct iovec} 16. Single-threaded per
 * instance.
 */
final class BatchSyscalls implements AutoCloseable {
    static final int SOL_UDP = 17;
    static final int UDP_SEGMENT = 103;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSGHDR = 56;
    private static final int MMSGHDR = 64;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle SENDMMSG = bind("sendmmsg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle RECVMMSG = bind("recvmmsg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle SENDMSG = bind("sendmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));

    private static MethodHandle bind(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), fd, Linker.Option.captureCallState("errno"));
    }

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment state = arena.allocate(CAPTURE);
    private final int fd;
    private final int maxMessages;
    private final int messageBytes;
    private final MemorySegment data;
    private final MemorySegment iovs;
    private final MemorySegment mmsgs;
    private final MemorySegment msghdr;
    private final MemorySegment gsoIov;
    private final MemorySegment control;

    /**
     * @param fd           a connected UDP socket
     * @param maxMessages  the largest batch
     * @param messageBytes bytes per datagram (or GSO segment)
     */
    BatchSyscalls(int fd, int maxMessages, int messageBytes) {
        this.fd = fd;
        this.maxMessages = maxMessages;
        this.messageBytes = messageBytes;
        this.data = arena.allocate((long) maxMessages * messageBytes, 8);
        this.iovs = arena.allocate(16L * maxMessages, 8);
        this.mmsgs = arena.allocate((long) MMSGHDR * maxMessages, 8);
        for (int i = 0; i < maxMessages; i++) {
            iovs.set(ADDRESS, 16L * i, data.asSlice((long) i * messageBytes, messageBytes));
            iovs.set(JAVA_LONG, 16L * i + 8, messageBytes);
            MemorySegment m = mmsgs.asSlice((long) MMSGHDR * i, MMSGHDR);
            m.set(ADDRESS, 16, iovs.asSlice(16L * i, 16));
            m.set(JAVA_LONG, 24, 1);
        }
        this.msghdr = arena.allocate(MSGHDR, 8);
        this.gsoIov = arena.allocate(16, 8);
        this.control = arena.allocate(24, 8);
        control.set(JAVA_LONG, 0, 18); // CMSG_LEN(sizeof(u16))
        control.set(JAVA_INT, 8, SOL_UDP);
        control.set(JAVA_INT, 12, UDP_SEGMENT);
        control.set(JAVA_SHORT, 16, (short) messageBytes);
    }

    /** sendmmsg of {@code n} datagrams; returns how many were sent (-errno on failure). */
    int sendmmsg(int n) {
        check(n);
        try {
            int r = (int) SENDMMSG.invokeExact(state, fd, mmsgs, n, MSG_DONTWAIT);
            return r < 0 ? -errno() : r;
        } catch (Throwable t) {
            throw new IllegalStateException("sendmmsg call failed", t);
        }
    }

    /** One GSO send of {@code segments} segments of {@code messageBytes}; returns bytes sent (-errno on failure). */
    long sendGso(int segments) {
        check(segments);
        gsoIov.set(ADDRESS, 0, data);
        gsoIov.set(JAVA_LONG, 8, (long) segments * messageBytes);
        msghdr.fill((byte) 0);
        msghdr.set(ADDRESS, 16, gsoIov);
        msghdr.set(JAVA_LONG, 24, 1);
        msghdr.set(ADDRESS, 32, control);
        msghdr.set(JAVA_LONG, 40, 24);
        try {
            long r = (long) SENDMSG.invokeExact(state, fd, msghdr, MSG_DONTWAIT);
            return r < 0 ? -errno() : r;
        } catch (Throwable t) {
            throw new IllegalStateException("sendmsg call failed", t);
        }
    }

    /** recvmmsg of at most {@code n} datagrams without blocking; returns how many (0 when none, -errno on failure). */
    int recvmmsg(int n) {
        check(n);
        try {
            int r = (int) RECVMMSG.invokeExact(state, fd, mmsgs, n, MSG_DONTWAIT, MemorySegment.NULL);
            if (r < 0) {
                int e = errno();
                return e == Libc.EAGAIN ? 0 : -e;
            }
            return r;
        } catch (Throwable t) {
            throw new IllegalStateException("recvmmsg call failed", t);
        }
    }

    private int errno() {
        return (int) ERRNO.get(state, 0L);
    }

    private void check(int n) {
        if (n < 1 || n > maxMessages) {
            throw new IllegalArgumentException("batch of " + n + " outside 1.." + maxMessages);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
