package org.pacelab.peers.quiche;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicChannelBootstrap;
import io.netty.handler.codec.quic.QuicChannelOption;
import io.netty.handler.codec.quic.QuicClientCodecBuilder;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.util.concurrent.Future;

import org.pacelab.io.runtime.QuicClient;
import org.pacelab.peers.ClientTls;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.h3.H3ClientHandler;
import org.pacelab.quic.hq.HqClientHandler;

/**
 * The quiche peer's client: downloads URLs from one server over one connection with quiche's QUIC transport
 * (through Netty's native codec) and pacelab's HTTP/3 or hq-interop client handler. Does not pace; see
 * {@link QuicheOptions}.
 */
public final class QuicheClient {
    private QuicheClient() {}

    /**
     * Connects, downloads every request (concurrently, within the server's stream limit) and returns when all
     * ended, the connection closed, or {@code timeoutNanos} passed.
     */
    public static QuicClient.Outcome download(InetSocketAddress server, ClientTls tls, List<DownloadRequest> requests,
                                              DownloadSink sink, QuicheOptions options, long timeoutNanos)
            throws IOException {
        return download(server, tls, tlsContext(tls, options, false), requests, sink, options, timeoutNanos, false);
    }

    /**
     * The client's TLS context. Connections made with one context share its session cache (Netty's, by server name and
     * port), so a second connection to the same server resumes the first's session.
     *
     * @param earlyData whether connections that resume may send 0-RTT
     */
    public static QuicSslContext tlsContext(ClientTls tls, QuicheOptions options, boolean earlyData) throws IOException {
        return QuicheTls.client(tls.alpn(), tls.caFile(), tls.insecure(), options.keyLog(), earlyData);
    }

    /**
     * As {@link #download(InetSocketAddress, ClientTls, List, DownloadSink, QuicheOptions, long)} with a given TLS context.
     *
     * @param zeroRtt open the streams as soon as Netty signals that 0-RTT may be sent (a resumed session of a context
     *                with early data), so the requests leave in 0-RTT packets
     */
    public static QuicClient.Outcome download(InetSocketAddress server, ClientTls tls, QuicSslContext ssl,
                                              List<DownloadRequest> requests, DownloadSink sink, QuicheOptions options,
                                              long timeoutNanos, boolean zeroRtt) throws IOException {
        long start = System.nanoTime();
        long deadline = start + timeoutNanos;
        EventLoopGroup group = NettyIo.eventLoop(options);
        try {
            QuicClientCodecBuilder codec = NettyIo.configure(new QuicClientCodecBuilder(), options)
                    .sslEngineProvider(q -> ssl.newEngine(q.alloc(), tls.serverName(), server.getPort()));
            Bootstrap b = new Bootstrap().group(group).channel(NettyIo.datagramChannel()).handler(codec.build());
            NettyIo.applySocketOptions(b);
            InetSocketAddress local = new InetSocketAddress(server.getAddress() instanceof Inet6Address ? "::" : "0.0.0.0", 0);
            ChannelFuture bound = b.bind(local).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new IOException("cannot bind a UDP socket: " + bound.cause().getMessage(), bound.cause());
            }

            CompletableFuture<List<DownloadResult>> finished = new CompletableFuture<>();
            DownloadListener listener = new DownloadListener() {
                @Override
                public void onDownloadFinished(DownloadResult result) {}

                @Override
                public void onAllFinished(List<DownloadResult> results) {
                    finished.complete(List.copyOf(results));
                }
            };
            ApplicationHandler app = "h3".equals(tls.alpn())
                    ? new H3ClientHandler(requests, sink, listener, System::nanoTime)
                    : new HqClientHandler(requests, sink, listener, System::nanoTime);
            NettyStreamTransport[] transport = new NettyStreamTransport[1];
            long[] handshakeDone = {-1};
            QuicChannelBootstrap qb = QuicChannel.newBootstrap(bound.channel())
                    .handler(new ChannelInitializer<QuicChannel>() {
                        @Override
                        protected void initChannel(QuicChannel ch) {
                            transport[0] = new NettyStreamTransport(ch, app, true, zeroRtt);
                            NettyIo.install(ch, transport[0]);
                        }
                    })
                    .streamHandler(NettyIo.peerStreamInitializer())
                    .remoteAddress(server)
                    // the handshake may take the whole timeout, as Kwik's does: Netty's default connect timeout (30 s)
                    // ended handshakes under the interop runner's handshakeloss and handshakecorruption while quiche
                    // was still retransmitting (RFC 9002 §6.2.1: each probe timeout doubles, 1+2+4+8+16 s is past 30 s)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, remainingMillis(deadline)));
            if (options.qlogDir() != null) {
                qb.option(QuicChannelOption.QLOG, NettyIo.qlog(options, "client"));
            }
            if (options.gso()) {
                qb.option(QuicChannelOption.SEGMENTED_DATAGRAM_PACKET_ALLOCATOR, NettyIo.segmentedAllocator(options));
            }
            Future<QuicChannel> connect = qb.connect();
            boolean timedOut = !connect.awaitUninterruptibly(remainingMillis(deadline));
            if (timedOut || !connect.isSuccess()) {
                String why = timedOut ? "no handshake before the timeout" : "handshake failed: " + connect.cause();
                connect.cancel(false);
                return new QuicClient.Outcome(List.of(), start, System.nanoTime(), -1, why, timedOut, -1);
            }
            handshakeDone[0] = System.nanoTime() - start;
            QuicChannel quic = connect.getNow();
            List<DownloadResult> results = List.of();
            try {
                results = finished.get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                timedOut = true;
                quic.close(true, 0, io.netty.buffer.Unpooled.EMPTY_BUFFER);
            } catch (ExecutionException e) {
                throw new IOException("the client failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                timedOut = true;
            }
            // The client handler closes the connection when all downloads ended; wait for quiche to send the close.
            quic.closeFuture().awaitUninterruptibly(2_000);
            long end = System.nanoTime();
            NettyStreamTransport t = transport[0];
            return new QuicClient.Outcome(results, start, end, t == null ? -1 : t.closeCode(),
                    t == null ? "" : t.closeDescription(), timedOut, handshakeDone[0]);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
        }
    }

    private static long remainingMillis(long deadline) {
        return Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
    }
}
