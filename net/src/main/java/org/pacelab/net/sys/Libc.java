package org.pacelab.net.sys;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The Linux libc calls the emulator and the io runtime need, bound through the FFM API ({@code java.lang.foreign}); errno is
 * captured per call. Linux x86-64 / aarch64 (LP64) only.
 */
public final class Libc {
    private Libc() {}

    public static final int AF_UNIX = 1, AF_INET = 2, AF_INET6 = 10;
    public static final int SOCK_DGRAM = 2, SOCK_SEQPACKET = 5, SOCK_NONBLOCK = 0x800, SOCK_CLOEXEC = 0x80000;
    public static final int SOL_SOCKET = 1, SO_REUSEADDR = 2, SO_SNDBUF = 7, SO_RCVBUF = 8, SO_SNDBUFFORCE = 32,
            SO_RCVBUFFORCE = 33, SO_TIMESTAMPNS = 35;
    /**
     * SO_RXQ_OVFL (asm-generic/socket.h): with it on, each received message carries a control message of the same level
     * and type, a u32 counting the datagrams the socket dropped so far (receive buffer full), when that count is not 0.
     */
    public static final int SO_RXQ_OVFL = 40;
    public static final int IPPROTO_IPV6 = 41, IPV6_V6ONLY = 26;
    public static final int MSG_DONTWAIT = 0x40, MSG_TRUNC = 0x20;
    public static final short POLLIN = 1;
    public static final int EINTR = 4, EAGAIN = 11, EACCES = 13, EADDRINUSE = 98, EADDRNOTAVAIL = 99, EPERM = 1,
            ECONNREFUSED = 111;
    public static final int O_RDWR = 2, O_RDONLY = 0, O_CLOEXEC = 0x80000, O_NONBLOCK = 0x800;
    public static final int CLONE_NEWNET = 0x40000000;
    public static final int PR_SET_TIMERSLACK = 29, PR_GET_TIMERSLACK = 30;
    public static final int EIO = 5, EINVAL = 22, EMSGSIZE = 90, ENOBUFS = 105, ENOPROTOOPT = 92;
    /** UDP socket options and control messages (linux/udp.h); 105 is the QUIC Steps study's kernel patch. */
    public static final int SOL_UDP = 17, UDP_SEGMENT = 103, UDP_GRO = 104, UDP_SEGMENT_PACING_RATE = 105;
    /** SO_TXTIME socket option and its SCM_TXTIME control message (linux/net_tstamp.h, asm-generic/socket.h). */
    public static final int SO_TXTIME = 61, SCM_TXTIME = 61;
    public static final int CLOCK_MONOTONIC = 1, CLOCK_TAI = 11;
    /**
     * The IP traffic class (whose low two bits are the ECN field, RFC 3168): set it with IP_TOS / IPV6_TCLASS, as a
     * socket option or per message; ask for it on receive with IP_RECVTOS / IPV6_RECVTCLASS, which delivers an
     * IP_TOS (one byte) or IPV6_TCLASS (an int) control message (linux/in.h, linux/in6.h).
     */
    public static final int IPPROTO_IP = 0, IP_TOS = 1, IP_RECVTOS = 13, IPV6_RECVTCLASS = 66, IPV6_TCLASS = 67;
    public static final int EFD_NONBLOCK = 0x800, EFD_CLOEXEC = 0x80000;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> STATE = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE));

    private static MethodHandle bind(String name, FunctionDescriptor fd, Linker.Option... extra) {
        Linker.Option[] opts = new Linker.Option[extra.length + 1];
        opts[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(extra, 0, opts, 1, extra.length);
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), fd, opts);
    }

    private static final MethodHandle SOCKET = bind("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle BIND = bind("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle CONNECT = bind("connect", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SOCKETPAIR = bind("socketpair", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle SETSOCKOPT = bind("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle GETSOCKOPT = bind("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GETSOCKNAME = bind("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle RECVMSG = bind("recvmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SENDTO = bind("sendto",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SENDMSG = bind("sendmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SENDMMSG = bind("sendmmsg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle RECVMMSG = bind("recvmmsg",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle CLOCK_GETTIME = bind("clock_gettime", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle EVENTFD = bind("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle PPOLL = bind("ppoll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle OPEN = bind("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle IOCTL = bind("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle READ = bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle WRITE = bind("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle SETNS = bind("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle PRCTL = bind("prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle PRCTL_GET = bind("prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle SCHED_SETSCHEDULER = bind("sched_setscheduler",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle GETEUID = bind("geteuid", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, JAVA_INT));

    /** errno of the last call made through this class on this thread. */
    public static int errno() { return (int) ERRNO.get(STATE.get(), 0L); }

    public static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static RuntimeException wrap(Throwable t) {
        return t instanceof RuntimeException r ? r : new IllegalStateException(t);
    }

    public static int socket(int domain, int type, int protocol) {
        try { return (int) SOCKET.invokeExact(STATE.get(), domain, type, protocol); } catch (Throwable t) { throw wrap(t); }
    }

    /** socketpair(2): two connected descriptors written into {@code fds} (two ints); 0 or -1. */
    public static int socketpair(int domain, int type, int protocol, MemorySegment fds) {
        try { return (int) SOCKETPAIR.invokeExact(STATE.get(), domain, type, protocol, fds); } catch (Throwable t) { throw wrap(t); }
    }

    public static int bind(int fd, MemorySegment addr, int len) {
        try { return (int) BIND.invokeExact(STATE.get(), fd, addr, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int connect(int fd, MemorySegment addr, int len) {
        try { return (int) CONNECT.invokeExact(STATE.get(), fd, addr, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int setsockopt(int fd, int level, int name, MemorySegment value, int len) {
        try { return (int) SETSOCKOPT.invokeExact(STATE.get(), fd, level, name, value, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int getsockopt(int fd, int level, int name, MemorySegment value, MemorySegment len) {
        try { return (int) GETSOCKOPT.invokeExact(STATE.get(), fd, level, name, value, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int getsockname(int fd, MemorySegment addr, MemorySegment len) {
        try { return (int) GETSOCKNAME.invokeExact(STATE.get(), fd, addr, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static long recvmsg(int fd, MemorySegment msghdr, int flags) {
        try { return (long) RECVMSG.invokeExact(STATE.get(), fd, msghdr, flags); } catch (Throwable t) { throw wrap(t); }
    }

    public static long sendto(int fd, MemorySegment buf, long len, int flags, MemorySegment addr, int addrLen) {
        try { return (long) SENDTO.invokeExact(STATE.get(), fd, buf, len, flags, addr, addrLen); } catch (Throwable t) { throw wrap(t); }
    }

    /** sendmsg(2): bytes sent or -1 (see {@link #errno()}). */
    public static long sendmsg(int fd, MemorySegment msghdr, int flags) {
        try { return (long) SENDMSG.invokeExact(STATE.get(), fd, msghdr, flags); } catch (Throwable t) { throw wrap(t); }
    }

    /** sendmmsg(2): messages sent (each one's byte count lands in its mmsghdr) or -1. */
    public static int sendmmsg(int fd, MemorySegment mmsghdrs, int count, int flags) {
        try { return (int) SENDMMSG.invokeExact(STATE.get(), fd, mmsghdrs, count, flags); } catch (Throwable t) { throw wrap(t); }
    }

    /** recvmmsg(2) without a timeout: messages received or -1. */
    public static int recvmmsg(int fd, MemorySegment mmsghdrs, int count, int flags) {
        try {
            return (int) RECVMMSG.invokeExact(STATE.get(), fd, mmsghdrs, count, flags, MemorySegment.NULL);
        } catch (Throwable t) {
            throw wrap(t);
        }
    }

    /** clock_gettime(2) of {@code clock} in nanoseconds; throws when the clock does not exist. */
    public static long clockGettime(int clock) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ts = a.allocate(16, 8);
            int r = (int) CLOCK_GETTIME.invokeExact(STATE.get(), clock, ts);
            if (r != 0) {
                throw new IllegalStateException("clock_gettime(" + clock + ") failed: " + strerror(errno()));
            }
            return ts.get(JAVA_LONG, 0) * 1_000_000_000L + ts.get(JAVA_LONG, 8);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw wrap(t);
        }
    }

    /** eventfd(2): a descriptor another thread can make readable (to wake a poll), or -1. */
    public static int eventfd(int initialValue, int flags) {
        try { return (int) EVENTFD.invokeExact(STATE.get(), initialValue, flags); } catch (Throwable t) { throw wrap(t); }
    }

    public static int close(int fd) {
        try { return (int) CLOSE.invokeExact(STATE.get(), fd); } catch (Throwable t) { throw wrap(t); }
    }

    public static int ppoll(MemorySegment fds, long nfds, MemorySegment timespec) {
        try { return (int) PPOLL.invokeExact(STATE.get(), fds, nfds, timespec, MemorySegment.NULL); } catch (Throwable t) { throw wrap(t); }
    }

    public static int open(MemorySegment path, int flags) {
        try { return (int) OPEN.invokeExact(STATE.get(), path, flags, 0); } catch (Throwable t) { throw wrap(t); }
    }

    public static int ioctl(int fd, long request, MemorySegment arg) {
        try { return (int) IOCTL.invokeExact(STATE.get(), fd, request, arg); } catch (Throwable t) { throw wrap(t); }
    }

    public static long read(int fd, MemorySegment buf, long len) {
        try { return (long) READ.invokeExact(STATE.get(), fd, buf, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static long write(int fd, MemorySegment buf, long len) {
        try { return (long) WRITE.invokeExact(STATE.get(), fd, buf, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int setns(int fd, int nstype) {
        try { return (int) SETNS.invokeExact(STATE.get(), fd, nstype); } catch (Throwable t) { throw wrap(t); }
    }

    /** Sets the calling thread's timer slack (ns); smaller slack makes timed waits wake closer to their deadline. */
    public static int setTimerSlack(long nanos) {
        try { return (int) PRCTL.invokeExact(STATE.get(), PR_SET_TIMERSLACK, nanos); } catch (Throwable t) { throw wrap(t); }
    }

    /** The calling thread's timer slack in ns (prctl PR_GET_TIMERSLACK), or -1. */
    public static long timerSlack() {
        try { return (int) PRCTL_GET.invokeExact(STATE.get(), PR_GET_TIMERSLACK); } catch (Throwable t) { throw wrap(t); }
    }

    /**
     * Makes the calling thread SCHED_FIFO with {@code priority} (needs root or CAP_SYS_NICE); returns 0 or the errno.
     * The kernel's RT throttling (sched_rt_runtime_us) still leaves 5 % of each CPU to other threads.
     */
    public static int setRealtimePriority(int priority) {
        return setRealtimePriority(0, priority);
    }

    /** Makes thread {@code tid} (0: the calling thread) SCHED_FIFO with {@code priority}; returns 0 or the errno. */
    public static int setRealtimePriority(int tid, int priority) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment param = a.allocate(JAVA_INT);
            param.set(JAVA_INT, 0, priority);
            int r = (int) SCHED_SETSCHEDULER.invokeExact(STATE.get(), tid, 1, param);
            return r == 0 ? 0 : errno();
        } catch (Throwable t) {
            throw wrap(t);
        }
    }

    public static boolean isRoot() {
        try { return (int) GETEUID.invokeExact(STATE.get()) == 0; } catch (Throwable t) { throw wrap(t); }
    }
}
