package org.pacelab.io.port;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * {@link DatagramPort} on the JDK's {@link DatagramChannel}, with configurable socket buffers (the QUIC on
 * the Highway study found the OS defaults an order of magnitude too small for fast paths).
 */
public final class ChannelDatagramPort implements DatagramPort {
    private final DatagramChannel channel;
    private final Selector selector;
    private final int receiveBuffer;
    private final int sendBuffer;
    private int trafficClass;
    private long lastReceiveTime;

    @Override
    public void setTrafficClass(int tc) throws IOException {
        if (tc != trafficClass) {
            // the JDK maps IP_TOS to IPV6_TCLASS on an IPv6 socket
            channel.setOption(StandardSocketOptions.IP_TOS, tc);
            trafficClass = tc;
        }
    }

    private ChannelDatagramPort(DatagramChannel channel, Selector selector) throws IOException {
        this.channel = channel;
        this.selector = selector;
        this.receiveBuffer = channel.getOption(StandardSocketOptions.SO_RCVBUF);
        this.sendBuffer = channel.getOption(StandardSocketOptions.SO_SNDBUF);
    }

    /**
     * Opens a socket bound to {@code local}.
     *
     * @param bufferBytes requested SO_RCVBUF and SO_SNDBUF (the kernel caps them at net.core.rmem_max/wmem_max)
     * @throws BindException with a sentence naming the address when it is in use or not local
     */
    public static ChannelDatagramPort bind(InetSocketAddress local, int bufferBytes) throws IOException {
        DatagramChannel ch = DatagramChannel.open(local.getAddress() instanceof java.net.Inet6Address
                ? java.net.StandardProtocolFamily.INET6 : java.net.StandardProtocolFamily.INET);
        try {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, bufferBytes);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, bufferBytes);
            ch.bind(local);
            ch.configureBlocking(false);
            Selector sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            return new ChannelDatagramPort(ch, sel);
        } catch (BindException e) {
            ch.close();
            String m = String.valueOf(e.getMessage());
            String why = m.contains("in use") ? "address already in use (another process is bound to it; choose another "
                    + "port or stop that process)" : m.contains("assign requested") ? "no local interface has this address"
                    : m.contains("ermission") ? "permission denied (ports below 1024 need root)" : m;
            throw new BindException("cannot listen on " + local.getHostString() + ":" + local.getPort() + ": " + why);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public InetSocketAddress receive(ByteBuffer dst) throws IOException {
        InetSocketAddress from = (InetSocketAddress) channel.receive(dst);
        if (from != null) {
            // the JDK gives no kernel timestamp: the read time is the best this port knows
            lastReceiveTime = System.nanoTime();
        }
        return from;
    }

    @Override
    public long lastReceiveTime() {
        return lastReceiveTime;
    }

    @Override
    public boolean send(ByteBuffer src, InetSocketAddress to) throws IOException {
        return channel.send(src, to) > 0;
    }

    @Override
    public void awaitReadable(long timeoutNanos) throws IOException {
        if (timeoutNanos <= 0) {
            selector.selectNow();
        } else {
            selector.select(Math.max(1, timeoutNanos / 1_000_000L));
        }
        selector.selectedKeys().clear();
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public boolean alsoWaitFor(DatagramPort other) {
        if (!(other instanceof ChannelDatagramPort o)) {
            return false;
        }
        try {
            o.channel.register(selector, SelectionKey.OP_READ);
            return true;
        } catch (java.nio.channels.ClosedChannelException e) {
            return false;
        }
    }

    @Override
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) channel.getLocalAddress();
    }

    /** The receive buffer the kernel granted (may be less than asked). */
    public int receiveBufferSize() { return receiveBuffer; }

    public int sendBufferSize() { return sendBuffer; }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
