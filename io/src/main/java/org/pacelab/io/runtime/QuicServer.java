package org.pacelab.io.runtime;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.pacelab.io.send.SendConfig;
import org.pacelab.io.send.SendPath;
import org.pacelab.net.sys.SysException;
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
 * HTTP/3 and hq-interop from a {@link ContentSource}. With a preferred address (RFC 9000 §9.6) a second socket: the
 * connections offer the address their configuration names ({@link ConnectionConfig#preferredAddress()}, which behind a
 * NAT or a relay may differ from the bound one), and datagrams of a connection that moved there leave from it.
 */
public final class QuicServer implements AutoCloseable {
    /** ALPN identifiers the server can speak. */
    public static final String H3 = "h3";
    public static final String HQ = HqServerHandler.ALPN;

    private final SendPath path;
    /** The preferred address's socket, or null. */
    private final SendPath preferredPath;
    private final EventLoop loop;
    private final Thread thread;
    private final ServerEndpoint endpoint;
    private volatile Throwable failure;

    private QuicServer(SendPath path, SendPath preferredPath, InetSocketAddress preferredLocal, ServerEndpoint endpoint) {
        this.path = path;
        this.preferredPath = preferredPath;
        this.endpoint = endpoint;
        this.loop = new EventLoop(path, preferredPath == null ? Map.of() : Map.of(preferredLocal, preferredPath),
                new EndpointConnections(endpoint));
        this.thread = Thread.ofPlatform().name("pacelab-server").daemon(false).unstarted(() -> {
            try {
                loop.run();
            } catch (Throwable t) {
                failure = t;
            }
        });
    }

    /** Like {@link #start(InetSocketAddress, ConnectionConfig, ContentSource, boolean, int, SendConfig, Consumer)} with
     *  the runtime's default send path ({@link SendConfig#DEFAULT}) and {@code wait}'s strategy. */
    public static QuicServer start(InetSocketAddress listen, ConnectionConfig config, ContentSource content,
                                   boolean requireRetry, int bufferBytes, WaitStrategy wait,
                                   Consumer<ServedRequest> requests) throws IOException {
        return start(listen, config, content, requireRetry, bufferBytes, SendConfig.DEFAULT.withWait(wait.name()), requests);
    }

    /**
     * Binds {@code listen} and starts serving.
     *
     * @param config       connection settings; its TLS config lists the ALPN protocols served (the send
     *                     configuration's pacing look-ahead replaces its own)
     * @param requireRetry validate client addresses with Retry before creating connections
     * @param bufferBytes  UDP socket buffer size to ask for
     * @param send         how datagrams go to the kernel; checked against the host first
     * @param requests     told about every request served (may be a no-op)
     * @throws org.pacelab.io.send.UnsupportedSendStrategyException when the host cannot honour {@code send}
     */
    public static QuicServer start(InetSocketAddress listen, ConnectionConfig config, ContentSource content,
                                   boolean requireRetry, int bufferBytes, SendConfig send,
                                   Consumer<ServedRequest> requests) throws IOException {
        return start(listen, null, config, content, requireRetry, bufferBytes, send, requests);
    }

    /**
     * Binds {@code listen}, and {@code preferredListen} when not null: the second address, where clients move to the
     * preferred address {@code config} offers (RFC 9000 §9.6; {@code config} must offer one then), and starts serving.
     */
    public static QuicServer start(InetSocketAddress listen, InetSocketAddress preferredListen, ConnectionConfig config,
                                   ContentSource content, boolean requireRetry, int bufferBytes, SendConfig send,
                                   Consumer<ServedRequest> requests) throws IOException {
        if (preferredListen != null && config.preferredAddress() == null) {
            throw new IllegalArgumentException("a second address to listen on needs a preferred address to offer");
        }
        send.validateFor(config.maxUdpPayloadSize());
        Map<String, Supplier<? extends ApplicationHandler>> handlers = new LinkedHashMap<>();
        for (String alpn : config.tls().applicationProtocols()) {
            switch (alpn) {
                case H3 -> handlers.put(H3, () -> new H3ServerHandler(content, requests));
                case HQ -> handlers.put(HQ, () -> new HqServerHandler(content, requests));
                default -> throw new IllegalArgumentException("unknown application protocol '" + alpn + "'; valid: h3, hq-interop");
            }
        }
        // the preferred address's socket first: whoever waits for the first one to be bound finds both bound
        SendPath preferredPath = preferredListen == null ? null : openPreferred(send, preferredListen, bufferBytes);
        SendPath path = null;
        try {
            InetSocketAddress preferredLocal = preferredPath == null ? null : preferredPath.port().localAddress();
            path = SendPath.open(send, listen, bufferBytes, null);
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            ServerEndpoint endpoint = new ServerEndpoint(config.withPacingLookahead(path.lookahead()),
                    from -> new AlpnSelectingHandler(handlers), new SplittableRandom(new SecureRandom().nextLong()), key,
                    requireRetry, 10_000);
            QuicServer s = new QuicServer(path, preferredPath, preferredLocal, endpoint);
            s.thread.start();
            return s;
        } catch (IOException | RuntimeException | Error e) {
            // whatever fails once a socket is bound (the second bind, the endpoint, the event loop, the thread's start)
            // closes both sockets: no bound port outlives a failed start
            closeQuietly(path, e);
            closeQuietly(preferredPath, e);
            throw e;
        }
    }

    private static void closeQuietly(SendPath p, Throwable failure) {
        if (p == null) {
            return;
        }
        try {
            p.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** The preferred address's socket; a failure to bind it says so (not "listen address", which is the first one). */
    private static SendPath openPreferred(SendConfig send, InetSocketAddress at, int bufferBytes) throws IOException {
        try {
            return SendPath.open(send, at, bufferBytes, null);
        } catch (SysException e) {
            String m = String.valueOf(e.getMessage());
            throw new SysException("preferred address" + (m.startsWith("listen address") ? m.substring("listen address".length())
                    : ": " + m), e.errno());
        } catch (java.net.BindException e) {
            throw new java.net.BindException("preferred address: " + e.getMessage());
        }
    }

    public InetSocketAddress localAddress() throws IOException {
        return path.port().localAddress();
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
        m.putAll(loop.counters());
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
        try {
            path.close();
        } finally {
            if (preferredPath != null) {
                preferredPath.close();
            }
        }
    }

    /** The preferred address's socket's local address, or null without one. */
    public InetSocketAddress preferredLocalAddress() throws IOException {
        return preferredPath == null ? null : preferredPath.port().localAddress();
    }
}
