package org.pacelab.net.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;

/**
 * A non-blocking UDP socket made with Linux system calls through FFM, so the emulator can read the kernel's
 * receive timestamp of each datagram (SO_TIMESTAMPNS, a CLOCK_REALTIME timespec in an SCM_TIMESTAMPNS control
 * message) and force large buffers (SO_RCVBUFFORCE / SO_SNDBUFFORCE when root). Single-threaded; buffers for
 * one receive are reused.
 */
public final class UdpSocket implements AutoCloseable {
    public static final int MAX_DATAGRAM = 65536;

    private final int fd;
    private final int family;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment data = arena.allocate(MAX_DATAGRAM, 8);
    private final MemorySegment name = arena.allocate(SocketAddresses.SOCKADDR_MAX, 8);
    private final MemorySegment sendName = arena.allocate(SocketAddresses.SOCKADDR_MAX, 8);
    private final MemorySegment iov = arena.allocate(16, 8);
    private final MemorySegment control = arena.allocate(256, 8);
    private final MemorySegment msghdr = arena.allocate(56, 8);
    private final MemorySegment intBuf = arena.allocate(8, 8);
    private final MemorySegment lenBuf = arena.allocate(8, 8);
    private boolean closed;

    /** What the last {@link #receive} got. */
    private InetSocketAddress lastSource;
    private long lastKernelTimeNanos;
    private int lastTrafficClass;
    private int sendTrafficClass;

    private UdpSocket(int fd, int family) {
        this.fd = fd;
        this.family = family;
        iov.set(ValueLayout.ADDRESS, 0, data);
        iov.set(ValueLayout.JAVA_LONG, 8, MAX_DATAGRAM);
    }

    /**
     * Opens a socket bound to {@code local} (port 0 = any).
     *
     * @param what names the socket in error messages (e.g. "--listen 127.0.0.1:4433")
     */
    public static UdpSocket bind(InetSocketAddress local, String what) throws SysException {
        int family = SocketAddresses.family(local);
        int fd = Libc.socket(family, Libc.SOCK_DGRAM | Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC, 0);
        if (fd < 0) {
            int e = Libc.errno();
            throw new SysException(what + ": cannot create a UDP socket: " + Libc.strerror(e), e);
        }
        UdpSocket s = new UdpSocket(fd, family);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addr = a.allocate(SocketAddresses.SOCKADDR_MAX, 8);
            int len = SocketAddresses.encode(local, addr, family);
            if (Libc.bind(fd, addr, len) != 0) {
                int e = Libc.errno();
                s.close();
                String why = e == Libc.EADDRINUSE ? "address already in use (another process is bound to it; choose another "
                        + "port or stop that process)" : e == Libc.EADDRNOTAVAIL ? "no local interface has this address"
                        : e == Libc.EACCES ? "permission denied (ports below 1024 need root)" : Libc.strerror(e);
                throw new SysException(what + ": cannot bind " + format(local) + ": " + why, e);
            }
        }
        return s;
    }

    /** Connects to {@code remote} so that {@link #send} without an address goes there and only its datagrams arrive. */
    public void connect(InetSocketAddress remote) throws SysException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addr = a.allocate(SocketAddresses.SOCKADDR_MAX, 8);
            int len = SocketAddresses.encode(remote, addr, family);
            if (Libc.connect(fd, addr, len) != 0) {
                int e = Libc.errno();
                throw new SysException("cannot connect a UDP socket to " + format(remote) + ": " + Libc.strerror(e), e);
            }
        }
    }

    /**
     * Asks the kernel to tell, with each received message, how many datagrams this socket has dropped so far because its
     * receive buffer was full (SO_RXQ_OVFL; {@link IncomingMessages#socketDrops}).
     */
    public boolean enableDropCount() {
        return setOption(Libc.SOL_SOCKET, Libc.SO_RXQ_OVFL, 1) == 0;
    }

    /** Turns on kernel receive timestamps (SO_TIMESTAMPNS). */
    public boolean enableTimestamps() {
        intBuf.set(ValueLayout.JAVA_INT, 0, 1);
        return Libc.setsockopt(fd, Libc.SOL_SOCKET, Libc.SO_TIMESTAMPNS, intBuf, 4) == 0;
    }

    /**
     * Asks the kernel for the traffic class (TOS) byte of every received datagram, so {@link #lastTrafficClass()}
     * tells its ECN codepoint. An IPv6 socket asks for both the IPv6 and the IPv4 byte (IPv4-mapped traffic).
     */
    public boolean enableTrafficClass() {
        if (family == Libc.AF_INET6) {
            boolean v6 = setOption(Libc.IPPROTO_IPV6, Libc.IPV6_RECVTCLASS, 1) == 0;
            setOption(Libc.IPPROTO_IP, Libc.IP_RECVTOS, 1);
            return v6;
        }
        return setOption(Libc.IPPROTO_IP, Libc.IP_RECVTOS, 1) == 0;
    }

    /**
     * Sets the traffic class (TOS) byte of the datagrams this socket sends from now on; only a change costs a system
     * call. Returns 0 or the errno.
     */
    public int setTrafficClass(int trafficClass) {
        if (trafficClass == sendTrafficClass) return 0;
        int e = family == Libc.AF_INET6 ? setOption(Libc.IPPROTO_IPV6, Libc.IPV6_TCLASS, trafficClass)
                : setOption(Libc.IPPROTO_IP, Libc.IP_TOS, trafficClass);
        if (e == 0) sendTrafficClass = trafficClass;
        return e;
    }

    /**
     * Asks for receive and send buffers of {@code bytes}; as root it forces them past net.core.rmem_max/wmem_max.
     * Returns the receive buffer the kernel granted (Linux reports twice the usable size).
     */
    public int setBuffers(int bytes) {
        intBuf.set(ValueLayout.JAVA_INT, 0, bytes);
        if (Libc.setsockopt(fd, Libc.SOL_SOCKET, Libc.SO_RCVBUFFORCE, intBuf, 4) != 0) {
            Libc.setsockopt(fd, Libc.SOL_SOCKET, Libc.SO_RCVBUF, intBuf, 4);
        }
        if (Libc.setsockopt(fd, Libc.SOL_SOCKET, Libc.SO_SNDBUFFORCE, intBuf, 4) != 0) {
            Libc.setsockopt(fd, Libc.SOL_SOCKET, Libc.SO_SNDBUF, intBuf, 4);
        }
        lenBuf.set(ValueLayout.JAVA_INT, 0, 4);
        Libc.getsockopt(fd, Libc.SOL_SOCKET, Libc.SO_RCVBUF, intBuf, lenBuf);
        return intBuf.get(ValueLayout.JAVA_INT, 0);
    }

    public InetSocketAddress localAddress() throws SysException {
        lenBuf.set(ValueLayout.JAVA_INT, 0, SocketAddresses.SOCKADDR_MAX);
        if (Libc.getsockname(fd, name, lenBuf) != 0) {
            int e = Libc.errno();
            throw new SysException("getsockname failed: " + Libc.strerror(e), e);
        }
        return SocketAddresses.decode(name);
    }

    /**
     * Receives one datagram without blocking into {@link #data()}.
     *
     * @return its length, or -1 if none is waiting
     */
    public int receive() throws SysException {
        msghdr.fill((byte) 0);
        msghdr.set(ValueLayout.ADDRESS, 0, name);
        msghdr.set(ValueLayout.JAVA_INT, 8, SocketAddresses.SOCKADDR_MAX);
        msghdr.set(ValueLayout.ADDRESS, 16, iov);
        msghdr.set(ValueLayout.JAVA_LONG, 24, 1);
        msghdr.set(ValueLayout.ADDRESS, 32, control);
        msghdr.set(ValueLayout.JAVA_LONG, 40, control.byteSize());
        long n = Libc.recvmsg(fd, msghdr, Libc.MSG_DONTWAIT);
        if (n < 0) {
            int e = Libc.errno();
            if (e == Libc.EAGAIN || e == Libc.EINTR || e == Libc.ECONNREFUSED) return -1;
            throw new SysException("recvmsg failed: " + Libc.strerror(e), e);
        }
        lastSource = SocketAddresses.decode(name);
        lastKernelTimeNanos = 0;
        lastTrafficClass = 0;
        long controlLen = msghdr.get(ValueLayout.JAVA_LONG, 40);
        long off = 0;
        while (off + 16 <= controlLen) {
            long cmsgLen = control.get(ValueLayout.JAVA_LONG, off);
            int level = control.get(ValueLayout.JAVA_INT, off + 8), type = control.get(ValueLayout.JAVA_INT, off + 12);
            if (cmsgLen < 16) break;
            if (level == Libc.SOL_SOCKET && type == Libc.SO_TIMESTAMPNS && cmsgLen >= 32) {
                lastKernelTimeNanos = control.get(ValueLayout.JAVA_LONG, off + 16) * 1_000_000_000L
                        + control.get(ValueLayout.JAVA_LONG, off + 24);
            } else if (level == Libc.IPPROTO_IP && type == Libc.IP_TOS && cmsgLen >= 17) {
                lastTrafficClass = control.get(ValueLayout.JAVA_BYTE, off + 16) & 0xff;
            } else if (level == Libc.IPPROTO_IPV6 && type == Libc.IPV6_TCLASS && cmsgLen >= 20) {
                lastTrafficClass = control.get(ValueLayout.JAVA_INT, off + 16) & 0xff;
            }
            off += (cmsgLen + 7) & ~7L;
        }
        return (int) n;
    }

    /** The receive buffer (valid until the next receive). */
    public MemorySegment data() { return data; }

    public InetSocketAddress lastSource() { return lastSource; }

    /** The traffic class (TOS) byte of the last datagram, when {@link #enableTrafficClass()} asked for it, else 0. */
    public int lastTrafficClass() { return lastTrafficClass; }

    /** Kernel receive time of the last datagram in ns since the epoch (CLOCK_REALTIME), or 0 if none was given. */
    public long lastKernelTimeNanos() { return lastKernelTimeNanos; }

    /** Sends {@code len} bytes of {@code buf} to {@code to} (null: to the connected peer). False if the buffer is full. */
    public boolean send(MemorySegment buf, int len, InetSocketAddress to) throws SysException {
        long n;
        if (to == null) {
            n = Libc.sendto(fd, buf, len, Libc.MSG_DONTWAIT, MemorySegment.NULL, 0);
        } else {
            int alen = SocketAddresses.encode(to, sendName, family);
            n = Libc.sendto(fd, buf, len, Libc.MSG_DONTWAIT, sendName, alen);
        }
        if (n < 0) {
            int e = Libc.errno();
            if (e == Libc.EAGAIN || e == Libc.ECONNREFUSED || e == Libc.EINTR) return false;
            throw new SysException("sendto " + (to == null ? "peer" : format(to)) + " failed: " + Libc.strerror(e), e);
        }
        return true;
    }

    private final MemorySegment out = arena.allocate(MAX_DATAGRAM, 8);

    /** Sends the bytes of {@code payload} (position to limit) to {@code to} (null: the connected peer). */
    public boolean send(java.nio.ByteBuffer payload, InetSocketAddress to) throws SysException {
        int len = payload.remaining();
        MemorySegment.copy(MemorySegment.ofBuffer(payload), 0, out, 0, len);
        return send(out, len, to);
    }

    /**
     * Sends messages [{@code from}, count) of {@code m} with one sendmmsg(2) (sendmsg(2) for a single message).
     *
     * @return how many messages the kernel took, 0 when the send buffer is full
     * @throws SysException for any other error; {@link SysException#errno()} tells which (EINVAL for a control
     *                      message the kernel does not know, EIO when the device cannot segment a GSO buffer)
     */
    public int send(OutgoingMessages m, int from) throws SysException {
        int n = m.count() - from;
        if (n <= 0) return 0;
        MemorySegment headers = m.headersFrom(from);
        long r = n == 1 ? Libc.sendmsg(fd, headers, Libc.MSG_DONTWAIT) : Libc.sendmmsg(fd, headers, n, Libc.MSG_DONTWAIT);
        if (r < 0) {
            int e = Libc.errno();
            if (e == Libc.EAGAIN || e == Libc.ENOBUFS || e == Libc.EINTR || e == Libc.ECONNREFUSED) return 0;
            throw new SysException((n == 1 ? "sendmsg" : "sendmmsg") + " failed: " + Libc.strerror(e), e);
        }
        return n == 1 ? 1 : (int) r;
    }

    /**
     * Receives up to {@code m.capacity()} datagrams (or GRO buffers) without blocking, with recvmmsg(2).
     *
     * @return how many arrived (0 when none was waiting)
     */
    public int receive(IncomingMessages m) throws SysException {
        MemorySegment headers = m.prepare();
        int r = Libc.recvmmsg(fd, headers, m.capacity(), Libc.MSG_DONTWAIT);
        if (r < 0) {
            int e = Libc.errno();
            if (e == Libc.EAGAIN || e == Libc.EINTR || e == Libc.ECONNREFUSED) return 0;
            throw new SysException("recvmmsg failed: " + Libc.strerror(e), e);
        }
        m.received(r);
        return r;
    }

    /** Sets an integer socket option; returns 0 or the errno. */
    public int setOption(int level, int name, int value) {
        intBuf.set(ValueLayout.JAVA_INT, 0, value);
        return Libc.setsockopt(fd, level, name, intBuf, 4) == 0 ? 0 : Libc.errno();
    }

    /** An integer socket option's value; throws when the kernel does not know it. */
    public int option(int level, int name) throws SysException {
        lenBuf.set(ValueLayout.JAVA_INT, 0, 4);
        if (Libc.getsockopt(fd, level, name, intBuf, lenBuf) != 0) {
            int e = Libc.errno();
            throw new SysException("getsockopt(" + level + ", " + name + ") failed: " + Libc.strerror(e), e);
        }
        return intBuf.get(ValueLayout.JAVA_INT, 0);
    }

    /** Lets the kernel coalesce arriving datagrams of one sender into one buffer (UDP_GRO); false if it cannot. */
    public boolean enableGro() {
        return setOption(Libc.SOL_UDP, Libc.UDP_GRO, 1) == 0;
    }

    /**
     * Turns on SO_TXTIME with {@code clock} (e.g. {@link Libc#CLOCK_MONOTONIC}) so that messages may carry a
     * send time; returns 0 or the errno. Only an fq or etf qdisc on the egress device honours the times.
     */
    public int enableTxTime(int clock) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment txtime = a.allocate(8, 4);
            txtime.set(ValueLayout.JAVA_INT, 0, clock);
            txtime.set(ValueLayout.JAVA_INT, 4, 0);
            return Libc.setsockopt(fd, Libc.SOL_SOCKET, Libc.SO_TXTIME, txtime, 8) == 0 ? 0 : Libc.errno();
        }
    }

    public int fd() { return fd; }

    public int family() { return family; }

    public static String format(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        Libc.close(fd);
        arena.close();
    }
}
