package org.pacelab.io.port;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import org.pacelab.net.sys.IncomingMessages;
import org.pacelab.net.sys.Libc;
import org.pacelab.net.sys.OutgoingMessages;
import org.pacelab.net.sys.Poller;
import org.pacelab.net.sys.SysException;
import org.pacelab.net.sys.UdpSocket;

/**
 * {@link DatagramPort} on Linux system calls through FFM ({@link UdpSocket}): receives up to a batch of datagrams
 * per recvmmsg (split again when the kernel coalesced them with GRO), sends {@link OutgoingMessages} with
 * sendmsg/sendmmsg (GSO, SCM_TXTIME, the paced-GSO control message), waits with ppoll to the nanosecond, and
 * forces large socket buffers when root. Each datagram's arrival time is the kernel's receive timestamp (SO_TIMESTAMPNS),
 * and the kernel tells how many datagrams the socket dropped (SO_RXQ_OVFL). One thread uses it; {@link #wakeup()} may
 * come from another.
 */
public final class NativeDatagramPort implements DatagramPort {
    private final UdpSocket socket;
    private final Poller poller = new Poller();
    private final int wakeFd;
    private final Arena arena = Arena.ofShared();
    /** Separate 8-byte buffers: wakeup() writes from other threads while the loop drains. */
    private final MemorySegment wakeValue = arena.allocate(8, 8);
    private final MemorySegment drainValue = arena.allocate(8, 8);
    private final IncomingMessages incoming;
    private final int grantedReceiveBuffer;
    /** The received message being handed out and the offset of its next datagram. */
    private int nextMessage;
    private int nextOffset;
    /** The bytes of message {@link #nextMessage}: a slice made once per message, not once per datagram GRO put in it. */
    private MemorySegment message;
    private long receiveCalls;
    private long datagramsCoalesced;
    private InetSocketAddress lastFrom;
    private int lastTrafficClass = -1;
    private long lastReceiveTime;
    /** When the last recvmmsg returned, on System.nanoTime()'s clock and on CLOCK_REALTIME (ns since the epoch). */
    private long readTime;
    private long readEpochNanos;
    private long receiveBufferDrops;

    private NativeDatagramPort(UdpSocket socket, int wakeFd, int recvBatch, int grantedReceiveBuffer, boolean dropCount)
            throws SysException {
        this.socket = socket;
        this.wakeFd = wakeFd;
        this.incoming = new IncomingMessages(recvBatch);
        this.grantedReceiveBuffer = grantedReceiveBuffer;
        // the kernel sends the count only once it is not 0
        this.receiveBufferDrops = dropCount ? 0 : -1;
        poller.add(socket.fd());
        poller.add(wakeFd);
    }

    /**
     * Opens a socket bound to {@code local}.
     *
     * @param bufferBytes requested SO_RCVBUF and SO_SNDBUF (forced past rmem_max/wmem_max as root)
     * @param recvBatch   datagrams per recvmmsg (1 = recvmsg)
     * @param gro         let the kernel coalesce received datagrams (UDP_GRO)
     */
    public static NativeDatagramPort bind(InetSocketAddress local, int bufferBytes, int recvBatch, boolean gro)
            throws IOException {
        UdpSocket s = UdpSocket.bind(local, "listen address");
        try {
            int granted = s.setBuffers(bufferBytes);
            // the ECN field of every arriving datagram (RFC 9000 §13.4.1); a kernel that refuses leaves it unknown (-1)
            s.enableTrafficClass();
            // when each datagram arrived, and how many the socket dropped: a kernel that refuses leaves the read time and
            // an unknown count (the first socket on a host to ask switches stamping on through a work queue: until then
            // the kernel stamps a datagram when it is read)
            s.enableTimestamps();
            boolean dropCount = s.enableDropCount();
            if (gro && !s.enableGro()) {
                throw new SysException("--gro: this kernel refuses UDP_GRO on the socket", Libc.ENOPROTOOPT);
            }
            int fd = Libc.eventfd(0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
            if (fd < 0) {
                int e = Libc.errno();
                throw new SysException("cannot create an eventfd: " + Libc.strerror(e), e);
            }
            return new NativeDatagramPort(s, fd, recvBatch, granted, dropCount);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Asks the kernel for the traffic class of every arriving datagram (IP_RECVTOS / IPV6_RECVTCLASS), so
     * {@link #lastTrafficClass()} tells its ECN codepoint (RFC 9000 §13.4.1).
     *
     * @throws SysException when the kernel refuses
     */
    public void enableTrafficClass() throws SysException {
        if (!socket.enableTrafficClass()) {
            throw new SysException("ECN: this kernel refuses IP_RECVTOS/IPV6_RECVTCLASS on the socket", Libc.ENOPROTOOPT);
        }
    }

    /**
     * Turns on SO_TXTIME with {@code clockId}; then messages may carry SCM_TXTIME send times.
     *
     * @throws SysException when the kernel refuses the option (before Linux 4.19)
     */
    public void enableTxTime(int clockId) throws SysException {
        int e = socket.enableTxTime(clockId);
        if (e != 0) {
            throw new SysException("--txtime: this kernel refuses SO_TXTIME: " + Libc.strerror(e), e);
        }
    }

    @Override
    public InetSocketAddress receive(ByteBuffer dst) throws IOException {
        if (nextMessage >= incoming.count()) {
            receiveCalls++;
            if (socket.receive(incoming) == 0) {
                nextMessage = 0;
                return null;
            }
            // the wall clock first: a preemption between the two reads then makes an arrival look later (at most the
            // read time), never earlier than it was — earlier, a token could look issued after the Initial carrying it
            // arrived (seen at load 35: 6 of 1,000 clients refused with INVALID_TOKEN)
            java.time.Instant wall = java.time.Instant.now();
            readTime = System.nanoTime();
            readEpochNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
            nextMessage = 0;
            nextOffset = 0;
        }
        int i = nextMessage;
        int length = incoming.length(i);
        int segment = incoming.segmentSize(i);
        int n = Math.min(segment, length - nextOffset);
        if (nextOffset == 0) {
            message = incoming.data(i);
        }
        copy(message, nextOffset, dst, n);
        if (nextOffset == 0) {
            // once per message: the datagrams GRO coalesced into it share its source, traffic class, receive time and
            // drop count (decoding them again for each cost 3 % of a downloading client's event loop, and an address
            // object per datagram)
            lastFrom = incoming.source(i);
            lastTrafficClass = incoming.trafficClass(i);
            lastReceiveTime = arrival(incoming.kernelTimeNanos(i), readTime, readEpochNanos);
            long drops = incoming.socketDrops(i);
            if (drops >= 0) {
                receiveBufferDrops = drops;
            }
        }
        InetSocketAddress from = lastFrom;
        nextOffset += n;
        if (nextOffset >= length) {
            if (segment < length) {
                datagramsCoalesced += (length + segment - 1) / segment;
            }
            nextMessage++;
            nextOffset = 0;
        }
        return from;
    }

    /**
     * Copies {@code n} bytes of {@code from} at {@code offset} to {@code dst}'s position and moves it on: into a heap
     * buffer's array without a segment of it (a segment and its session per datagram and a slice of the message per
     * datagram were 7 % of a downloading client's sampled allocation at e5709ba).
     */
    private static void copy(MemorySegment from, int offset, ByteBuffer dst, int n) {
        int at = dst.position();
        if (n > dst.remaining()) {
            throw new IndexOutOfBoundsException("a datagram of " + n + " bytes does not fit the " + dst.remaining()
                    + " bytes left in the receive buffer");
        }
        if (dst.hasArray()) {
            MemorySegment.copy(from, ValueLayout.JAVA_BYTE, offset, dst.array(), dst.arrayOffset() + at, n);
        } else {
            MemorySegment.copy(from, offset, MemorySegment.ofBuffer(dst), 0, n);
        }
        dst.position(at + n);
    }

    /**
     * The arrival time, on System.nanoTime()'s clock, of a datagram the kernel stamped {@code kernelEpochNanos}
     * (CLOCK_REALTIME; 0 = not stamped) and this port read at {@code readTime} (nanoTime) = {@code readEpochNanos}
     * (CLOCK_REALTIME, read just before {@code readTime}): the read time less the time the datagram waited, never later
     * than the read time.
     */
    static long arrival(long kernelEpochNanos, long readTime, long readEpochNanos) {
        if (kernelEpochNanos == 0) {
            return readTime;
        }
        return readTime - Math.max(0, readEpochNanos - kernelEpochNanos);
    }

    @Override
    public long lastReceiveTime() {
        return lastReceiveTime;
    }

    @Override
    public long receiveBufferDrops() {
        return receiveBufferDrops;
    }

    @Override
    public boolean send(ByteBuffer src, InetSocketAddress to) throws IOException {
        return socket.send(src, to);
    }

    @Override
    public int lastTrafficClass() {
        return lastTrafficClass;
    }

    @Override
    public void setTrafficClass(int trafficClass) throws SysException {
        int e = socket.setTrafficClass(trafficClass);
        if (e != 0) {
            throw new SysException("cannot set the traffic class " + trafficClass + " (ECN): " + Libc.strerror(e), e);
        }
    }

    /**
     * Sends messages [{@code from}, count) of {@code messages} in one call; returns how many the kernel took (0 when
     * the send buffer is full). Errors carry the errno ({@link SysException#errno()}).
     */
    public int send(OutgoingMessages messages, int from) throws SysException {
        return socket.send(messages, from);
    }

    /** {@link org.pacelab.net.sys.Libc#AF_INET} or AF_INET6: the family of addresses in outgoing messages. */
    public int family() { return socket.family(); }

    @Override
    public void awaitReadable(long timeoutNanos) throws IOException {
        if (nextMessage < incoming.count()) {
            return;
        }
        int n = poller.await(Math.max(0, timeoutNanos));
        if (n > 0 && poller.readable(1)) {
            Libc.read(wakeFd, drainValue, 8);
        }
    }

    @Override
    public boolean alsoWaitFor(DatagramPort other) {
        if (!(other instanceof NativeDatagramPort o)) {
            return false;
        }
        poller.add(o.socket.fd());
        return true;
    }

    @Override
    public boolean hasBuffered() {
        return nextMessage < incoming.count();
    }

    @Override
    public void wakeup() {
        wakeValue.set(ValueLayout.JAVA_LONG, 0, 1);
        Libc.write(wakeFd, wakeValue, 8);
    }

    @Override
    public InetSocketAddress localAddress() throws IOException {
        return socket.localAddress();
    }

    /** The receive buffer the kernel granted (Linux reports twice the usable size). */
    public int receiveBufferSize() { return grantedReceiveBuffer; }

    /** recvmsg/recvmmsg calls made. */
    public long receiveCalls() { return receiveCalls; }

    /** Datagrams that arrived coalesced by GRO. */
    public long datagramsCoalesced() { return datagramsCoalesced; }

    @Override
    public void close() {
        poller.close();
        incoming.close();
        Libc.close(wakeFd);
        socket.close();
        arena.close();
    }
}
