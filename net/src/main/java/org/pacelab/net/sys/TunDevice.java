package org.pacelab.net.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * A Linux TUN device (layer 3, no packet-information header) created through FFM: open /dev/net/tun and
 * ioctl(TUNSETIFF) with IFF_TUN | IFF_NO_PI. The device exists while this descriptor is open (not persistent),
 * so a crashed emulator leaves no device behind. Reads and writes carry one IP packet each.
 */
public final class TunDevice implements AutoCloseable {
    private static final long TUNSETIFF = 0x400454caL;
    private static final short IFF_TUN = 0x0001, IFF_NO_PI = 0x1000;
    public static final int MAX_PACKET = 65536;

    private final int fd;
    private final String name;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buf = arena.allocate(MAX_PACKET, 8);
    private boolean closed;

    private TunDevice(int fd, String name) {
        this.fd = fd;
        this.name = name;
    }

    /** Creates TUN device {@code name} (at most 15 bytes) in the calling thread's network namespace. */
    public static TunDevice create(String name) throws SysException {
        if (name.getBytes(StandardCharsets.US_ASCII).length > 15) throw new IllegalArgumentException("interface name too long: " + name);
        int fd;
        try (Arena a = Arena.ofConfined()) {
            fd = Libc.open(a.allocateFrom("/dev/net/tun"), Libc.O_RDWR | Libc.O_NONBLOCK | Libc.O_CLOEXEC);
            if (fd < 0) {
                int e = Libc.errno();
                throw new SysException("cannot open /dev/net/tun: " + Libc.strerror(e)
                        + (e == Libc.EACCES || e == Libc.EPERM ? " (TUN devices need root)" : ""), e);
            }
            MemorySegment ifr = a.allocate(40, 8);
            byte[] n = name.getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(n, 0, ifr, ValueLayout.JAVA_BYTE, 0, n.length);
            ifr.set(ValueLayout.JAVA_SHORT, 16, (short) (IFF_TUN | IFF_NO_PI));
            if (Libc.ioctl(fd, TUNSETIFF, ifr) != 0) {
                int e = Libc.errno();
                Libc.close(fd);
                throw new SysException("cannot create TUN device " + name + ": " + Libc.strerror(e), e);
            }
        }
        return new TunDevice(fd, name);
    }

    /**
     * Two connected descriptors that carry one IP packet per read and write as a TUN device does (a non-blocking
     * {@code AF_UNIX SOCK_SEQPACKET} socket pair: what one end writes, the other reads), so the emulator's warm-up
     * and tests run {@link TunDevice}'s own reads and writes without a device or a namespace. Named {@code name}/0 and /1.
     */
    public static TunDevice[] socketPair(String name) throws SysException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(8, 4);
            if (Libc.socketpair(Libc.AF_UNIX, Libc.SOCK_SEQPACKET | Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC, 0, fds) != 0) {
                int e = Libc.errno();
                throw new SysException("cannot create a socket pair for " + name + ": " + Libc.strerror(e), e);
            }
            return new TunDevice[] {new TunDevice(fds.get(ValueLayout.JAVA_INT, 0), name + "/0"),
                    new TunDevice(fds.get(ValueLayout.JAVA_INT, 4), name + "/1")};
        }
    }

    /** Reads one packet into {@link #buffer()} without blocking; -1 if none is waiting. */
    public int read() throws SysException {
        long n = Libc.read(fd, buf, MAX_PACKET);
        if (n < 0) {
            int e = Libc.errno();
            if (e == Libc.EAGAIN || e == Libc.EINTR) return -1;
            throw new SysException("read from " + name + " failed: " + Libc.strerror(e), e);
        }
        return (int) n;
    }

    public MemorySegment buffer() { return buf; }

    private final MemorySegment out = arena.allocate(MAX_PACKET, 8);

    /** Writes one IP packet (position to limit); false if the device's queue is full. */
    public boolean write(java.nio.ByteBuffer packet) throws SysException {
        int len = packet.remaining();
        MemorySegment.copy(MemorySegment.ofBuffer(packet), 0, out, 0, len);
        long n = Libc.write(fd, out, len);
        if (n < 0) {
            int e = Libc.errno();
            if (e == Libc.EAGAIN || e == Libc.EINTR) return false;
            throw new SysException("write to " + name + " failed: " + Libc.strerror(e), e);
        }
        return true;
    }

    public int fd() { return fd; }

    public String name() { return name; }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        Libc.close(fd);
        arena.close();
    }
}
