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
import java.util.Objects;

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

    /**
     * The functions this class calls, each bound (its downcall handle made: a generated stub class, several ms of a
     * cold JVM's time each) at its first call or by {@link #prepare}, not all at once when the class is first used: a
     * process calls about half of them (docs/benchmarks.md, issue 14, "the client's and server's start-up").
     */
    public enum Function {
        SOCKET, BIND, CONNECT, SOCKETPAIR, SETSOCKOPT, GETSOCKOPT, GETSOCKNAME, RECVMSG, SENDTO, SENDMSG, SENDMMSG,
        RECVMMSG, CLOCK_GETTIME, EVENTFD, CLOSE, PPOLL, OPEN, IOCTL, READ, WRITE, SETNS,
        /** prctl with an argument (setTimerSlack). */
        PRCTL,
        /** prctl without one (timerSlack). */
        PRCTL_GET,
        SCHED_SETSCHEDULER, GETEUID, STRERROR
    }

    /**
     * Binds these functions now (on the calling thread), so that their first calls do not: for a set-up thread that
     * runs while the process does other work. Each handle is bound once, by whichever thread gets there first (a
     * class's initialisation).
     */
    public static void prepare(Function... functions) {
        for (Function f : functions) {
            MethodHandle bound = switch (f) {
                case SOCKET -> Socket.HANDLE;
                case BIND -> Bind.HANDLE;
                case CONNECT -> Connect.HANDLE;
                case SOCKETPAIR -> Socketpair.HANDLE;
                case SETSOCKOPT -> Setsockopt.HANDLE;
                case GETSOCKOPT -> Getsockopt.HANDLE;
                case GETSOCKNAME -> Getsockname.HANDLE;
                case RECVMSG -> Recvmsg.HANDLE;
                case SENDTO -> Sendto.HANDLE;
                case SENDMSG -> Sendmsg.HANDLE;
                case SENDMMSG -> Sendmmsg.HANDLE;
                case RECVMMSG -> Recvmmsg.HANDLE;
                case CLOCK_GETTIME -> ClockGettime.HANDLE;
                case EVENTFD -> Eventfd.HANDLE;
                case CLOSE -> Close.HANDLE;
                case PPOLL -> Ppoll.HANDLE;
                case OPEN -> Open.HANDLE;
                case IOCTL -> Ioctl.HANDLE;
                case READ -> Read.HANDLE;
                case WRITE -> Write.HANDLE;
                case SETNS -> Setns.HANDLE;
                case PRCTL -> Prctl.HANDLE;
                case PRCTL_GET -> PrctlGet.HANDLE;
                case SCHED_SETSCHEDULER -> SchedSetscheduler.HANDLE;
                case GETEUID -> Geteuid.HANDLE;
                case STRERROR -> Strerror.HANDLE;
            };
            Objects.requireNonNull(bound);
        }
    }

    /** A downcall handle of libc's {@code name} that captures errno; a missing function is a clear error. */
    static MethodHandle bind(String name, FunctionDescriptor fd, Linker.Option... extra) {
        Linker.Option[] opts = new Linker.Option[extra.length + 1];
        opts[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(extra, 0, opts, 1, extra.length);
        return LINKER.downcallHandle(find(name), fd, opts);
    }

    private static MethodHandle bindWithoutErrno(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(find(name), fd);
    }

    private static MemorySegment find(String name) {
        return LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no function '" + name + "' (pacelab needs Linux's libc)"));
    }

    // One holder class per function: its handle is made when the holder is first used, and is a constant to the JIT
    // like any static final field.

    private static final class Socket {
        static final MethodHandle HANDLE = bind("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    }

    private static final class Bind {
        static final MethodHandle HANDLE = bind("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Connect {
        static final MethodHandle HANDLE = bind("connect", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Socketpair {
        static final MethodHandle HANDLE = bind("socketpair", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    }

    private static final class Setsockopt {
        static final MethodHandle HANDLE = bind("setsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Getsockopt {
        static final MethodHandle HANDLE = bind("getsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }

    private static final class Getsockname {
        static final MethodHandle HANDLE = bind("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }

    private static final class Recvmsg {
        static final MethodHandle HANDLE = bind("recvmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Sendto {
        static final MethodHandle HANDLE = bind("sendto", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Sendmsg {
        static final MethodHandle HANDLE = bind("sendmsg", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    }

    private static final class Sendmmsg {
        static final MethodHandle HANDLE = bind("sendmmsg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    }

    private static final class Recvmmsg {
        static final MethodHandle HANDLE = bind("recvmmsg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    }

    private static final class ClockGettime {
        static final MethodHandle HANDLE = bind("clock_gettime", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }

    private static final class Eventfd {
        static final MethodHandle HANDLE = bind("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    private static final class Close {
        static final MethodHandle HANDLE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    private static final class Ppoll {
        static final MethodHandle HANDLE = bind("ppoll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    }

    private static final class Open {
        static final MethodHandle HANDLE = bind("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    }

    private static final class Ioctl {
        static final MethodHandle HANDLE = bind("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.firstVariadicArg(2));
    }

    private static final class Read {
        static final MethodHandle HANDLE = bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    private static final class Write {
        static final MethodHandle HANDLE = bind("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    private static final class Setns {
        static final MethodHandle HANDLE = bind("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    private static final class Prctl {
        static final MethodHandle HANDLE = bind("prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), Linker.Option.firstVariadicArg(1));
    }

    private static final class PrctlGet {
        static final MethodHandle HANDLE = bind("prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(1));
    }

    private static final class SchedSetscheduler {
        static final MethodHandle HANDLE = bind("sched_setscheduler", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    }

    private static final class Geteuid {
        static final MethodHandle HANDLE = bind("geteuid", FunctionDescriptor.of(JAVA_INT));
    }

    private static final class Strerror {
        static final MethodHandle HANDLE = bindWithoutErrno("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /** errno of the last call made through this class on this thread. */
    public static int errno() { return (int) ERRNO.get(STATE.get(), 0L); }

    public static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) Strerror.HANDLE.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static RuntimeException wrap(Throwable t) {
        return t instanceof RuntimeException r ? r : new IllegalStateException(t);
    }

    public static int socket(int domain, int type, int protocol) {
        try { return (int) Socket.HANDLE.invokeExact(STATE.get(), domain, type, protocol); } catch (Throwable t) { throw wrap(t); }
    }

    /** socketpair(2): two connected descriptors written into {@code fds} (two ints); 0 or -1. */
    public static int socketpair(int domain, int type, int protocol, MemorySegment fds) {
        try { return (int) Socketpair.HANDLE.invokeExact(STATE.get(), domain, type, protocol, fds); } catch (Throwable t) { throw wrap(t); }
    }

    public static int bind(int fd, MemorySegment addr, int len) {
        try { return (int) Bind.HANDLE.invokeExact(STATE.get(), fd, addr, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int connect(int fd, MemorySegment addr, int len) {
        try { return (int) Connect.HANDLE.invokeExact(STATE.get(), fd, addr, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int setsockopt(int fd, int level, int name, MemorySegment value, int len) {
        try { return (int) Setsockopt.HANDLE.invokeExact(STATE.get(), fd, level, name, value, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int getsockopt(int fd, int level, int name, MemorySegment value, MemorySegment len) {
        try { return (int) Getsockopt.HANDLE.invokeExact(STATE.get(), fd, level, name, value, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int getsockname(int fd, MemorySegment addr, MemorySegment len) {
        try { return (int) Getsockname.HANDLE.invokeExact(STATE.get(), fd, addr, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static long recvmsg(int fd, MemorySegment msghdr, int flags) {
        try { return (long) Recvmsg.HANDLE.invokeExact(STATE.get(), fd, msghdr, flags); } catch (Throwable t) { throw wrap(t); }
    }

    public static long sendto(int fd, MemorySegment buf, long len, int flags, MemorySegment addr, int addrLen) {
        try { return (long) Sendto.HANDLE.invokeExact(STATE.get(), fd, buf, len, flags, addr, addrLen); } catch (Throwable t) { throw wrap(t); }
    }

    /** sendmsg(2): bytes sent or -1 (see {@link #errno()}). */
    public static long sendmsg(int fd, MemorySegment msghdr, int flags) {
        try { return (long) Sendmsg.HANDLE.invokeExact(STATE.get(), fd, msghdr, flags); } catch (Throwable t) { throw wrap(t); }
    }

    /** sendmmsg(2): messages sent (each one's byte count lands in its mmsghdr) or -1. */
    public static int sendmmsg(int fd, MemorySegment mmsghdrs, int count, int flags) {
        try { return (int) Sendmmsg.HANDLE.invokeExact(STATE.get(), fd, mmsghdrs, count, flags); } catch (Throwable t) { throw wrap(t); }
    }

    /** recvmmsg(2) without a timeout: messages received or -1. */
    public static int recvmmsg(int fd, MemorySegment mmsghdrs, int count, int flags) {
        try {
            return (int) Recvmmsg.HANDLE.invokeExact(STATE.get(), fd, mmsghdrs, count, flags, MemorySegment.NULL);
        } catch (Throwable t) {
            throw wrap(t);
        }
    }

    /** clock_gettime(2) of {@code clock} in nanoseconds; throws when the clock does not exist. */
    public static long clockGettime(int clock) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ts = a.allocate(16, 8);
            int r = (int) ClockGettime.HANDLE.invokeExact(STATE.get(), clock, ts);
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
        try { return (int) Eventfd.HANDLE.invokeExact(STATE.get(), initialValue, flags); } catch (Throwable t) { throw wrap(t); }
    }

    public static int close(int fd) {
        try { return (int) Close.HANDLE.invokeExact(STATE.get(), fd); } catch (Throwable t) { throw wrap(t); }
    }

    public static int ppoll(MemorySegment fds, long nfds, MemorySegment timespec) {
        try { return (int) Ppoll.HANDLE.invokeExact(STATE.get(), fds, nfds, timespec, MemorySegment.NULL); } catch (Throwable t) { throw wrap(t); }
    }

    public static int open(MemorySegment path, int flags) {
        try { return (int) Open.HANDLE.invokeExact(STATE.get(), path, flags, 0); } catch (Throwable t) { throw wrap(t); }
    }

    public static int ioctl(int fd, long request, MemorySegment arg) {
        try { return (int) Ioctl.HANDLE.invokeExact(STATE.get(), fd, request, arg); } catch (Throwable t) { throw wrap(t); }
    }

    public static long read(int fd, MemorySegment buf, long len) {
        try { return (long) Read.HANDLE.invokeExact(STATE.get(), fd, buf, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static long write(int fd, MemorySegment buf, long len) {
        try { return (long) Write.HANDLE.invokeExact(STATE.get(), fd, buf, len); } catch (Throwable t) { throw wrap(t); }
    }

    public static int setns(int fd, int nstype) {
        try { return (int) Setns.HANDLE.invokeExact(STATE.get(), fd, nstype); } catch (Throwable t) { throw wrap(t); }
    }

    /** Sets the calling thread's timer slack (ns); smaller slack makes timed waits wake closer to their deadline. */
    public static int setTimerSlack(long nanos) {
        try { return (int) Prctl.HANDLE.invokeExact(STATE.get(), PR_SET_TIMERSLACK, nanos); } catch (Throwable t) { throw wrap(t); }
    }

    /** The calling thread's timer slack in ns (prctl PR_GET_TIMERSLACK), or -1. */
    public static long timerSlack() {
        try { return (int) PrctlGet.HANDLE.invokeExact(STATE.get(), PR_GET_TIMERSLACK); } catch (Throwable t) { throw wrap(t); }
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
            int r = (int) SchedSetscheduler.HANDLE.invokeExact(STATE.get(), tid, 1, param);
            return r == 0 ? 0 : errno();
        } catch (Throwable t) {
            throw wrap(t);
        }
    }

    public static boolean isRoot() {
        try { return (int) Geteuid.HANDLE.invokeExact(STATE.get()) == 0; } catch (Throwable t) { throw wrap(t); }
    }
}
