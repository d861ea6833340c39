package org.pacelab.io.runtime;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.pacelab.io.port.ChannelDatagramPort;
import org.pacelab.io.port.DatagramPort;
import org.pacelab.quic.app.AlpnSelectingHandler;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.ServerEndpoint;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;
import org.pacelab.quic.h3.H3ServerHandler;
import org.pacelab.quic.hq.HqServerHandler;

/**
 * A running pacelab server: a UDP socket, a {@link ServerEndpoint} and the event loop thread serving
 * HTTP/3 and hq-interop from a {@link ContentSource}.
 */
public final class QuicServer implements AutoCloseable {
    /** ALPN identifiers the server can speak. */
    public static final String H3 = "h3";
    public static final String HQ = HqServerHandler.ALPN;

    private final DatagramPort port;
    private final EventLoop loop;
    private final Thread thread;
    private final ServerEndpoint endpoint;
    private volatile Throwable failure;

    private QuicServer(DatagramPort port, ServerEndpoint endpoint, WaitStrategy wait) {
        this.port = port;
        this.endpoint = endpoint;
        this.loop = new EventLoop(port, new EndpointConnections(endpoint), wait);
        this.thread = Thread.ofPlatform().name("pacelab-server").daemon(false).unstarted(() -> {
            try {
                loop.run();
            } catch (Throwable t) {
                failure = t;
            }
        });
    }

    /**
     * Binds {@code listen} and starts serving.
     *
     * @param config       connection settings; its TLS config lists the ALPN protocols served
     * @param requireRetry validate client addresses with Retry before creating connections
     * @param bufferBytes  UDP socket buffer size to ask for
     * @param requests     told about every request served (may be a no-op)
     */
    public static QuicServer start(InetSocketAddress listen, ConnectionConfig config, ContentSource content,
                                   boolean requireRetry, int bufferBytes, WaitStrategy wait,
                                   Consumer<ServedRequest> requests) throws IOException {
        ChannelDatagramPort port = ChannelDatagramPort.bind(listen, bufferBytes);
        Map<String, Supplier<? extends ApplicationHandler>> handlers = new LinkedHashMap<>();
        for (String alpn : config.tls().applicationProtocols()) {
            switch (alpn) {
                case H3 -> handlers.put(H3, () -> new H3ServerHandler(content, requests));
                case HQ -> handlers.put(HQ, () -> new HqServerHandler(content, requests));
                default -> {
                    port.close();
                    throw new IllegalArgumentException("unknown application protocol '" + alpn + "'; valid: h3, hq-interop");
                }
            }
        }
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        ServerEndpoint endpoint = new ServerEndpoint(config, from -> new AlpnSelectingHandler(handlers),
                new SplittableRandom(new SecureRandom().nextLong()), key, requireRetry, 10_000);
        QuicServer s = new QuicServer(port, endpoint, wait);
        s.thread.start();
        return s;
    }

    public InetSocketAddress localAddress() throws IOException {
        return port.localAddress();
    }

    /** The loop's failure, if it died. */
    public Throwable failure() { return failure; }

    public boolean isRunning() { return thread.isAlive(); }

    /** Blocks until the server stops (e.g. by {@link #close()} from a shutdown hook). */
    public void await() throws InterruptedException {
        thread.join();
    }

    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>(endpoint.counters());
        m.put("datagrams_sent", loop.datagramsSent());
        m.put("datagrams_received", loop.datagramsReceived());
        m.put("send_buffer_full", loop.sendBufferFull());
        return m;
    }

    @Override
    public void close() throws IOException {
        loop.stop();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        port.close();
    }

    /** Adapts a {@link ServerEndpoint} to the event loop. */
    private static final class EndpointConnections implements Connections {
        private final ServerEndpoint endpoint;
        private final List<Peer> peers = new ArrayList<>();
        private int lastSize = -1;

        EndpointConnections(ServerEndpoint endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public void receive(ByteBuffer datagram, InetSocketAddress from, long now, Replies replies) {
            endpoint.receive(datagram, from, now, replies::send);
        }

        @Override
        public Collection<Peer> active() {
            if (endpoint.connections().size() != lastSize) {
                peers.clear();
                for (ServerEndpoint.Entry e : endpoint.connections()) {
                    peers.add(new Peer(e.connection, e.peer));
                }
                lastSize = peers.size();
            }
            return peers;
        }

        @Override
        public void sweep() {
            if (!endpoint.removeClosed().isEmpty()) {
                lastSize = -1;
            }
        }

        @Override
        public boolean finished() {
            return false;
        }
    }
}
