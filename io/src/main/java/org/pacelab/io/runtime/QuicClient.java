package org.pacelab.io.runtime;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.pacelab.io.send.SendConfig;
import org.pacelab.io.send.SendPath;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.LocalConnectionIds;
import org.pacelab.quic.conn.NetworkPath;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.tls.SessionTicket;
import org.pacelab.quic.conn.StatelessResetTokens;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.h3.H3ClientHandler;
import org.pacelab.quic.hq.HqClientHandler;

/**
 * Downloads resources from one server over one QUIC connection (HTTP/3 or hq-interop), on the calling
 * thread, and reports how each download went.
 */
public final class QuicClient {
    private QuicClient() {}

    /**
     * The outcome of a client run.
     *
     * @param results        one per request, in request order
     * @param startNanos     System.nanoTime() when the client started (before the handshake)
     * @param endNanos       when the run ended
     * @param closeError     the connection's close error code (0 for a clean close)
     * @param closeReason    the close reason, possibly empty
     * @param timedOut       whether the run was cut off by the timeout
     * @param handshakeNanos handshake duration, or -1 if it never completed
     * @param sessionTicket  the last session ticket the server issued (to resume a next connection), or null
     * @param resumed        whether this connection resumed a session
     * @param earlyData      whether requests went as 0-RTT data and the server accepted them (RFC 9001 §4.6)
     */
    public record Outcome(List<DownloadResult> results, long startNanos, long endNanos, long closeError,
                          String closeReason, boolean timedOut, long handshakeNanos, SessionTicket sessionTicket, boolean resumed,
                          boolean earlyData) {
        /** An outcome of a stack that reports no session tickets. */
        public Outcome(List<DownloadResult> results, long startNanos, long endNanos, long closeError, String closeReason,
                       boolean timedOut, long handshakeNanos) {
            this(results, startNanos, endNanos, closeError, closeReason, timedOut, handshakeNanos, null, false, false);
        }

        public boolean allSucceeded() {
            return !timedOut && results.size() > 0 && results.stream().allMatch(DownloadResult::succeeded);
        }
    }

    /**
     * Connects to {@code server} and downloads {@code requests}; returns when all ended, the connection
     * closed, or {@code timeoutNanos} passed.
     *
     * @param config the connection settings; its TLS config's first ALPN protocol selects h3 or hq-interop
     */
    public static Outcome download(InetSocketAddress server, ConnectionConfig config, List<DownloadRequest> requests,
                                   DownloadSink sink, long timeoutNanos, int bufferBytes, WaitStrategy wait)
            throws IOException, QuicException {
        return download(server, config, requests, sink, timeoutNanos, bufferBytes, SendConfig.DEFAULT.withWait(wait.name()));
    }

    /**
     * Connects to {@code server} and downloads {@code requests} sending as {@code send} says (checked against the
     * host first: {@link org.pacelab.io.send.UnsupportedSendStrategyException} when it cannot honour it); returns
     * when all ended, the connection closed, or {@code timeoutNanos} passed.
     */
    public static Outcome download(InetSocketAddress server, ConnectionConfig config, List<DownloadRequest> requests,
                                   DownloadSink sink, long timeoutNanos, int bufferBytes, SendConfig send)
            throws IOException, QuicException {
        long start = System.nanoTime();
        send.validateFor(config.maxUdpPayloadSize());
        InetSocketAddress local = new InetSocketAddress(server.getAddress() instanceof java.net.Inet6Address ? "::" : "0.0.0.0", 0);
        try (SendPath path = SendPath.open(send, local, bufferBytes, server)) {
            ConnectionConfig connectionConfig = config.withPacingLookahead(path.lookahead());
            List<DownloadResult> finished = new ArrayList<>();
            DownloadListener listener = new DownloadListener() {
                @Override
                public void onDownloadFinished(DownloadResult result) {}

                @Override
                public void onAllFinished(List<DownloadResult> results) {
                    finished.addAll(results);
                }
            };
            String alpn = connectionConfig.tls().applicationProtocols().get(0);
            ApplicationHandler handler = switch (alpn) {
                case QuicServer.H3 -> new H3ClientHandler(requests, sink, listener, System::nanoTime);
                case QuicServer.HQ -> new HqClientHandler(requests, sink, listener, System::nanoTime);
                default -> throw new IllegalArgumentException("unknown application protocol '" + alpn + "'; valid: h3, hq-interop");
            };
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            QuicConnection conn = QuicConnection.client(connectionConfig, handler, new SplittableRandom(new SecureRandom().nextLong()),
                    new StatelessResetTokens(key), NO_ROUTING, System.nanoTime());
            // one socket (local null); the connection may move to the server's preferred address (RFC 9000 §9.6.1)
            conn.setPath(new NetworkPath(null, server));
            long deadline = start + timeoutNanos;
            long[] handshakeDone = {-1};
            Connections single = new Connections() {
                final List<Peer> peers = List.of(new Peer(conn, server));

                @Override
                public void receive(ByteBuffer datagram, InetSocketAddress from, long now, Replies replies) {
                    receive(datagram, from, -1, now, replies);
                }

                @Override
                public void receive(ByteBuffer datagram, InetSocketAddress from, int ecn, long now, Replies replies) {
                    receiveInBurst(datagram, from, ecn, now, replies);
                    endReceiveBurst();
                }

                @Override
                public void receiveInBurst(ByteBuffer datagram, InetSocketAddress from, int ecn, long now,
                                           Replies replies) {
                    if (from.equals(server) || from.getPort() == server.getPort() || conn.isPeerAddress(from)) {
                        conn.receiveInBurst(datagram, ecn, new NetworkPath(null, from), now);
                        if (handshakeDone[0] < 0 && conn.isHandshakeComplete()) {
                            handshakeDone[0] = now;
                        }
                    }
                }

                @Override
                public void endReceiveBurst() {
                    conn.endReceiveBurst();
                }

                @Override
                public List<Peer> active() {
                    return peers;
                }

                @Override
                public boolean finished() {
                    return conn.isTerminated() || System.nanoTime() >= deadline;
                }
            };
            new EventLoop(path, single).run();
            long end = System.nanoTime();
            boolean timedOut = !conn.isTerminated();
            if (timedOut) {
                conn.close(0x0, "client timeout");
            }
            List<DownloadResult> results = finished.isEmpty() ? List.of() : List.copyOf(finished);
            return new Outcome(results, start, end, conn.closeErrorCode(), conn.closeReason(), timedOut,
                    handshakeDone[0] < 0 ? -1 : handshakeDone[0] - start, conn.sessionTicket(), conn.resumed(),
                    conn.earlyDataAccepted());
        }
    }

    private static final LocalConnectionIds.Listener NO_ROUTING = new LocalConnectionIds.Listener() {
        @Override
        public void onIssued(byte[] cid) {}

        @Override
        public void onRetired(byte[] cid) {}
    };
}
