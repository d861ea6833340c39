package org.pacelab.peers.quiche;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.quic.EpollQuicUtils;
import io.netty.handler.codec.quic.QLogConfiguration;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicChannelOption;
import io.netty.handler.codec.quic.QuicCodecBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.SegmentedDatagramPacketAllocator;

/**
 * The Netty pieces both quiche peers use: one event-loop thread (epoll when the native transport loads,
 * which GSO requires; NIO otherwise), the codec settings from {@link QuicheOptions}, and the per-connection
 * options (qlog, GSO allocator).
 */
final class NettyIo {
    private NettyIo() {}

    /** One event loop thread on epoll (required for GSO) or NIO. */
    static EventLoopGroup eventLoop(QuicheOptions o) {
        if (o.gso()) {
            if (!Epoll.isAvailable()) {
                throw new IllegalStateException("GSO needs Netty's epoll transport, which did not load here: "
                        + Epoll.unavailabilityCause());
            }
            if (!EpollDatagramChannel.isSegmentedDatagramPacketSupported()) {
                throw new IllegalStateException("GSO was asked for, but this kernel does not support UDP_SEGMENT");
            }
        }
        return new MultiThreadIoEventLoopGroup(1, Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    static Class<? extends DatagramChannel> datagramChannel() {
        return Epoll.isAvailable() ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

    /** UDP socket buffers large enough for unshaped loopback transfers (the kernel caps them at rmem_max). */
    static final int SOCKET_BUFFER = 16 << 20;

    static void applySocketOptions(io.netty.bootstrap.Bootstrap b) {
        b.option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER).option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER);
    }

    /** Transport parameters and congestion control shared by client and server codecs. */
    static <B extends QuicCodecBuilder<B>> B configure(B builder, QuicheOptions o) {
        return builder
                .maxIdleTimeout(o.idleTimeoutMs(), TimeUnit.MILLISECONDS)
                .maxSendUdpPayloadSize(o.maxUdpPayload())
                .maxRecvUdpPayloadSize(65527)
                .initialMaxData(o.connectionWindow())
                .initialMaxStreamDataBidirectionalLocal(o.streamWindow())
                .initialMaxStreamDataBidirectionalRemote(o.streamWindow())
                .initialMaxStreamDataUnidirectional(o.streamWindow())
                .initialMaxStreamsBidirectional(o.maxStreams())
                .initialMaxStreamsUnidirectional(o.maxStreams())
                .congestionControlAlgorithm(o.congestion())
                .hystart(o.hystart())
                .activeMigration(false);
    }

    /**
     * The qlog setting for connections (one file per connection in the directory, which is created: quiche takes
     * a path that does not exist as a file name), or null when no directory was given.
     */
    static QLogConfiguration qlog(QuicheOptions o, String role) throws IOException {
        if (o.qlogDir() == null) {
            return null;
        }
        Path dir = Files.createDirectories(o.qlogDir()).toAbsolutePath();
        return new QLogConfiguration(dir.toString(), "pacelab peer quiche " + role, "quiche through Netty (unpaced)");
    }

    /** The GSO allocator, or null for one packet per send. */
    static SegmentedDatagramPacketAllocator segmentedAllocator(QuicheOptions o) {
        return o.gso() ? EpollQuicUtils.newSegmentedAllocator(o.gsoSegments()) : null;
    }

    /** Streams the peer opens get the initializer of their connection's transport. */
    static ChannelHandler peerStreamInitializer() {
        return new ChannelInitializer<QuicStreamChannel>() {
            @Override
            protected void initChannel(QuicStreamChannel ch) {
                NettyStreamTransport t = ch.parent().attr(NettyStreamTransport.KEY).get();
                if (t == null) {
                    ch.close();
                    return;
                }
                ch.pipeline().addLast(t.streamInitializer());
            }
        };
    }

    /** Installs the transport on a connection: its attribute, connection events, and onConnected at handshake. */
    static void install(QuicChannel ch, NettyStreamTransport t) {
        ch.attr(NettyStreamTransport.KEY).set(t);
        ch.pipeline().addLast(t.connectionHandler());
    }
}
