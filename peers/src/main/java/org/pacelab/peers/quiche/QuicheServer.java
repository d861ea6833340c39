package org.pacelab.peers.quiche;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.quic.InsecureQuicTokenHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicChannelOption;
import io.netty.handler.codec.quic.QuicServerCodecBuilder;
import io.netty.handler.codec.quic.QuicSslContext;

import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.app.AlpnSelectingHandler;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.h3.H3ServerHandler;
import org.pacelab.quic.hq.HqServerHandler;

/**
 * The quiche peer's server: quiche's QUIC transport (through Netty's native codec) carrying pacelab's
 * HTTP/3 and hq-interop server handlers over a {@link ContentSource} ({@code /bytes/N} and files under a root).
 * Does not pace; see {@link QuicheOptions}.
 */
public final class QuicheServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel socket;

    private QuicheServer(EventLoopGroup group, Channel socket) {
        this.group = group;
        this.socket = socket;
    }

    /**
     * Binds {@code listen} and starts serving.
     *
     * @param requests told about every request served (on the event loop thread)
     */
    public static QuicheServer start(InetSocketAddress listen, QuicheOptions options, Certificates.Identity identity,
                                     ContentSource content, Consumer<ServedRequest> requests) throws IOException {
        return start(listen, options, QuicheFeatures.NONE, identity, content, requests);
    }

    /** As {@link #start(InetSocketAddress, QuicheOptions, Certificates.Identity, ContentSource, Consumer)}, with a Retry or 0-RTT. */
    public static QuicheServer start(InetSocketAddress listen, QuicheOptions options, QuicheFeatures features,
                                     Certificates.Identity identity, ContentSource content, Consumer<ServedRequest> requests)
            throws IOException {
        QuicSslContext ssl = QuicheTls.server(identity, options.keyLog(), List.of(QuicheTls.ALPN), features.earlyData());
        ChannelHandler connections = new ChannelInitializer<QuicChannel>() {
            @Override
            protected void initChannel(QuicChannel ch) {
                AlpnSelectingHandler app = new AlpnSelectingHandler(Map.of(
                        "h3", () -> new H3ServerHandler(content, requests),
                        HqServerHandler.ALPN, () -> new HqServerHandler(content, requests)));
                NettyIo.install(ch, new NettyStreamTransport(ch, app, false));
            }
        };
        QuicServerCodecBuilder codec = NettyIo.configure(new QuicServerCodecBuilder(), options)
                .sslContext(ssl)
                // Netty sends a Retry to every Initial without a token when it has a token handler; none without
                .tokenHandler(features.retry() ? InsecureQuicTokenHandler.INSTANCE : null)
                .handler(connections)
                .streamHandler(NettyIo.peerStreamInitializer());
        if (options.qlogDir() != null) {
            codec.option(QuicChannelOption.QLOG, NettyIo.qlog(options, "server"));
        }
        if (options.gso()) {
            codec.option(QuicChannelOption.SEGMENTED_DATAGRAM_PACKET_ALLOCATOR, NettyIo.segmentedAllocator(options));
        }
        EventLoopGroup group = NettyIo.eventLoop(options);
        Bootstrap b = new Bootstrap().group(group).channel(NettyIo.datagramChannel()).handler(codec.build());
        NettyIo.applySocketOptions(b);
        ChannelFuture bound = b.bind(listen).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
            throw new IOException("cannot bind " + listen.getHostString() + ":" + listen.getPort() + ": "
                    + bound.cause().getMessage(), bound.cause());
        }
        return new QuicheServer(group, bound.channel());
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) socket.localAddress();
    }

    /** Blocks until the socket is closed. */
    public void await() throws InterruptedException {
        socket.closeFuture().await();
    }

    @Override
    public void close() {
        socket.close().awaitUninterruptibly(5_000);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
    }
}
