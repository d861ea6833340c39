package org.pacelab.peers.quiche;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.ChannelOutputShutdownException;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamFrame;
import io.netty.handler.codec.quic.QuicStreamLimitChangedEvent;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.netty.handler.codec.quic.QuicStreamType;
import io.netty.handler.codec.quic.SslEarlyDataReadyEvent;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;

import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;

/**
 * pacelab's {@link StreamTransport} over one Netty {@link QuicChannel} (quiche underneath), so pacelab's
 * HTTP/3 and hq-interop handlers run unchanged on quiche's transport. Every method and callback runs on
 * the channel's event loop, which Netty shares between a connection and its streams — the single thread
 * {@link ApplicationHandler} requires.
 *
 * <p>Mapping: stream data arrives as {@link QuicStreamFrame}s (stream channels read frames and allow half
 * closure) and is queued until the handler reads it; writes go out as frames while the stream channel is
 * writable (quiche keeps at most one offered chunk beyond its own send buffer) and
 * {@link ApplicationHandler#onStreamWritable} follows Netty's writability events; RESET_STREAM from the peer
 * arrives as a {@link QuicStreamResetException}; quiche's stream-limit updates as
 * {@link QuicStreamLimitChangedEvent}. Two approximations, because Netty does not expose them:
 * {@link ApplicationHandler#onStreamComplete} is called when a stream whose FIN we sent is closed by Netty
 * (FIN handed to quiche and the peer's side ended, not "all bytes acknowledged"), and STOP_SENDING is reported
 * with error code 0 (Netty drops the peer's code).
 */
final class NettyStreamTransport implements StreamTransport {
    /** Where a connection keeps its transport, for the stream handlers of peer-initiated streams. */
    static final AttributeKey<NettyStreamTransport> KEY = AttributeKey.valueOf("pacelab.streamTransport");

    private final QuicChannel channel;
    private final ApplicationHandler handler;
    private final boolean client;
    private final Map<Long, StreamState> streams = new HashMap<>();
    private final StreamHandler streamHandler = new StreamHandler();
    private final ChannelHandler streamInitializer = new ChannelInitializer<QuicStreamChannel>() {
        @Override
        protected void initChannel(QuicStreamChannel ch) {
            ch.config().setReadFrames(true);
            if (ch.type() == QuicStreamType.BIDIRECTIONAL) {
                ch.config().setAllowHalfClosure(true);
            }
            ch.pipeline().addLast(streamHandler);
        }
    };
    private QuicConnectionCloseEvent peerClose;
    private long localCloseCode = -1;
    private String localCloseReason = "";
    private boolean closedNotified;
    private boolean connected;
    /** Peer streams that appeared before the application was told about the handshake. */
    private final List<Long> openedBeforeConnected = new ArrayList<>();

    private static final class StreamState {
        final QuicStreamChannel channel;
        final ArrayDeque<ByteBuf> inbound = new ArrayDeque<>();
        boolean finReceived;
        boolean finSent;
        boolean wantWritable;

        StreamState(QuicStreamChannel channel) {
            this.channel = channel;
        }
    }

    NettyStreamTransport(QuicChannel channel, ApplicationHandler handler, boolean client) {
        this(channel, handler, client, false);
    }

    /**
     * @param earlyData client: tell the application it is connected when Netty signals that 0-RTT may be sent
     *                  ({@link SslEarlyDataReadyEvent}), so the streams it opens then carry their data in 0-RTT
     */
    NettyStreamTransport(QuicChannel channel, ApplicationHandler handler, boolean client, boolean earlyData) {
        this.channel = channel;
        this.handler = handler;
        this.client = client;
        this.earlyData = earlyData;
    }

    private final boolean earlyData;
    /** Whether the application was told it is connected in 0-RTT, before the handshake completed. */
    private boolean inEarlyData;

    /**
     * Initializer for every stream channel of this connection: streams read frames (so the FIN is seen),
     * bidirectional ones stay writable after the peer's FIN (half closure), then our handler.
     */
    ChannelHandler streamInitializer() {
        return streamInitializer;
    }

    /** Handler for the connection's own pipeline: handshake done (channelActive), stream-limit and close events. */
    ChannelHandler connectionHandler() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof QuicStreamLimitChangedEvent && connected) {
                    handler.onStreamsAvailable();
                } else if (evt instanceof SslEarlyDataReadyEvent && earlyData && !connected) {
                    inEarlyData = true;
                    ctx.channel().eventLoop().execute(NettyStreamTransport.this::connected);
                } else if (evt instanceof QuicConnectionCloseEvent e) {
                    peerClose = e;
                }
                ctx.fireUserEventTriggered(evt);
            }

            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                inEarlyData = false;
                ctx.fireChannelActive();
                // Netty updates the peer's stream limits (peerAllowedStreams) after channelActive, in the same
                // pass; the application may open its streams only after that.
                ctx.channel().eventLoop().execute(NettyStreamTransport.this::connected);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                connectionClosed();
                ctx.fireChannelInactive();
            }
        };
    }

    private void connected() {
        if (connected || closedNotified) {
            return;
        }
        connected = true;
        handler.onConnected(this);
        for (long id : openedBeforeConnected) {
            handler.onPeerStreamOpened(id);
            if (streams.containsKey(id)) {
                handler.onStreamReadable(id);
            }
        }
        openedBeforeConnected.clear();
    }

    /** The close the connection ended with, as one sentence (after it closed). */
    String closeDescription() {
        if (peerClose != null) {
            return "peer closed with " + (peerClose.isApplicationClose() ? "application" : "transport") + " error 0x"
                    + Integer.toHexString(peerClose.error()) + reasonText(peerReason());
        }
        if (localCloseCode >= 0) {
            return "closed by us with application error 0x" + Long.toHexString(localCloseCode) + reasonText(localCloseReason);
        }
        return "closed (idle timeout or local shutdown)";
    }

    /** The application error code of the close, or -1 when the connection did not end with one. */
    long closeCode() {
        if (peerClose != null) {
            return peerClose.error();
        }
        return localCloseCode;
    }

    /** The peer's reason phrase; Netty's event throws when the peer sent none. */
    private String peerReason() {
        try {
            return new String(peerClose.reason(), StandardCharsets.UTF_8);
        } catch (NullPointerException noReason) {
            return "";
        }
    }

    private static String reasonText(String reason) {
        return reason == null || reason.isEmpty() ? "" : " (" + reason + ")";
    }

    private void connectionClosed() {
        if (closedNotified) {
            return;
        }
        closedNotified = true;
        for (StreamState s : streams.values()) {
            s.inbound.forEach(ByteBuf::release);
            s.inbound.clear();
        }
        if (peerClose != null) {
            handler.onClosed(peerClose.error(), peerClose.isApplicationClose(),
                    peerReason());
        } else {
            handler.onClosed(Math.max(localCloseCode, 0), localCloseCode >= 0, localCloseReason);
        }
    }

    @Override
    public boolean isClient() {
        return client;
    }

    @Override
    public String applicationProtocol() {
        String p = channel.sslEngine() == null ? null : channel.sslEngine().getApplicationProtocol();
        return p == null ? "" : p;
    }

    @Override
    public long openStream(boolean bidirectional) {
        QuicStreamType type = bidirectional ? QuicStreamType.BIDIRECTIONAL : QuicStreamType.UNIDIRECTIONAL;
        // Netty advances its stream ID counter even when quiche refuses the stream, so ask first. In 0-RTT Netty knows
        // no limit yet (it reads quiche's after the handshake); quiche holds the remembered one and refuses beyond it.
        if (inEarlyData ? !channel.isOpen() : !channel.isActive() || channel.peerAllowedStreams(type) <= 0) {
            return -1;
        }
        Future<QuicStreamChannel> f = channel.createStream(type, streamInitializer);
        if (!f.isDone() || !f.isSuccess()) {
            return -1;
        }
        QuicStreamChannel ch = f.getNow();
        streams.computeIfAbsent(ch.streamId(), id -> new StreamState(ch));
        return ch.streamId();
    }

    @Override
    public int write(long streamId, ByteBuffer data, boolean fin) {
        StreamState s = streams.get(streamId);
        if (s == null || s.finSent || !s.channel.isActive()) {
            return 0;
        }
        if (!s.channel.isWritable()) {
            s.wantWritable = true;
            return 0;
        }
        int n = data.remaining();
        ByteBuf buf = s.channel.alloc().directBuffer(n);
        buf.writeBytes(data);
        if (fin) {
            s.finSent = true;
        }
        ChannelFuture f = s.channel.writeAndFlush(new DefaultQuicStreamFrame(buf, fin));
        f.addListener(done -> {
            if (!done.isSuccess() && done.cause() instanceof ChannelOutputShutdownException) {
                // Deferred: the failure may be reported inside this write, and handlers expect no re-entry.
                s.channel.eventLoop().execute(() -> handler.onStopSending(streamId, 0));
            }
        });
        if (!s.channel.isWritable()) {
            s.wantWritable = true;
        }
        return n;
    }

    @Override
    public void finish(long streamId) {
        StreamState s = streams.get(streamId);
        if (s == null || s.finSent || !s.channel.isActive()) {
            return;
        }
        s.finSent = true;
        s.channel.writeAndFlush(QuicStreamFrame.EMPTY_FIN);
    }

    @Override
    public int read(long streamId, ByteBuffer dst) {
        StreamState s = streams.get(streamId);
        if (s == null) {
            return -1;
        }
        int n = 0;
        while (dst.hasRemaining() && !s.inbound.isEmpty()) {
            ByteBuf b = s.inbound.peek();
            int take = Math.min(dst.remaining(), b.readableBytes());
            int limit = dst.limit();
            dst.limit(dst.position() + take);
            b.readBytes(dst);
            dst.limit(limit);
            n += take;
            if (!b.isReadable()) {
                s.inbound.poll().release();
            }
        }
        if (n == 0 && s.inbound.isEmpty() && s.finReceived) {
            return -1;
        }
        return n;
    }

    @Override
    public void resetStream(long streamId, long applicationErrorCode) {
        StreamState s = streams.get(streamId);
        if (s != null && s.channel.isActive()) {
            s.finSent = true;
            s.channel.shutdownOutput((int) applicationErrorCode);
        }
    }

    @Override
    public void stopSending(long streamId, long applicationErrorCode) {
        StreamState s = streams.get(streamId);
        if (s != null && s.channel.isActive()) {
            s.channel.shutdownInput((int) applicationErrorCode);
        }
    }

    @Override
    public void close(long applicationErrorCode, String reason) {
        if (localCloseCode < 0 && peerClose == null) {
            localCloseCode = applicationErrorCode;
            localCloseReason = reason == null ? "" : reason;
        }
        channel.close(true, (int) applicationErrorCode, Unpooled.copiedBuffer(localCloseReason, StandardCharsets.UTF_8));
    }

    /** Per-stream events, shared by all stream channels of the connection (one event loop). */
    @ChannelHandler.Sharable
    private final class StreamHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            QuicStreamChannel ch = (QuicStreamChannel) ctx.channel();
            boolean isNew = !streams.containsKey(ch.streamId());
            streams.computeIfAbsent(ch.streamId(), id -> new StreamState(ch));
            if (isNew && !ch.isLocalCreated()) {
                if (connected) {
                    handler.onPeerStreamOpened(ch.streamId());
                } else {
                    openedBeforeConnected.add(ch.streamId());
                }
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            QuicStreamChannel ch = (QuicStreamChannel) ctx.channel();
            StreamState s = streams.get(ch.streamId());
            QuicStreamFrame frame = (QuicStreamFrame) msg;
            try {
                if (s == null || s.finReceived) {
                    return;
                }
                if (frame.content().isReadable()) {
                    s.inbound.add(frame.content().retain());
                }
                s.finReceived = frame.hasFin();
            } finally {
                frame.release();
            }
            if (connected) {
                handler.onStreamReadable(ch.streamId());
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            QuicStreamChannel ch = (QuicStreamChannel) ctx.channel();
            StreamState s = streams.get(ch.streamId());
            if (s != null && s.wantWritable && ch.isWritable()) {
                s.wantWritable = false;
                handler.onStreamWritable(ch.streamId());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            QuicStreamChannel ch = (QuicStreamChannel) ctx.channel();
            if (cause instanceof QuicStreamResetException reset) {
                StreamState s = streams.get(ch.streamId());
                if (s != null) {
                    s.finReceived = true;
                    s.inbound.forEach(ByteBuf::release);
                    s.inbound.clear();
                }
                handler.onStreamReset(ch.streamId(), Math.max(reset.applicationProtocolCode(), 0));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            QuicStreamChannel ch = (QuicStreamChannel) ctx.channel();
            StreamState s = streams.remove(ch.streamId());
            if (s == null) {
                return;
            }
            s.inbound.forEach(ByteBuf::release);
            s.inbound.clear();
            if (s.finSent) {
                // Deferred: Netty closes the stream inside the write that hands over the FIN.
                ch.eventLoop().execute(() -> {
                    if (!closedNotified) {
                        handler.onStreamComplete(ch.streamId());
                    }
                });
            }
        }
    }
}
