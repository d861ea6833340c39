package org.pacelab.sim.host;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.LongSupplier;

import org.pacelab.io.runtime.Connections;
import org.pacelab.quic.conn.QuicConnection;

/**
 * A client's single connection as the event loop sees it, like {@code QuicClient}'s: datagrams from the server go
 * to it, the handshake's completion time is noted, and the loop ends when the connection is terminated or the
 * client's timeout passes. A fixed-duration client closes its connection (with {@code closeCode}, no error) at its
 * first loop turn at or after {@code closeAt}, as a client process stopped after the run's duration would, except
 * that the server learns of it at once.
 */
public final class ClientConnection implements Connections {
    private final QuicConnection connection;
    private final InetSocketAddress server;
    private final List<Peer> peers;
    private final long deadline;
    private final LongSupplier clock;
    private final long closeAt;
    private final long closeCode;
    private long handshakeDone = -1;
    private boolean closedAtDuration;

    /** @param deadline virtual time at which the client gives up */
    public ClientConnection(QuicConnection connection, InetSocketAddress server, long deadline, LongSupplier clock) {
        this(connection, server, deadline, clock, Long.MAX_VALUE, 0);
    }

    /**
     * @param deadline  virtual time at which the client gives up
     * @param closeAt   virtual time at which the client closes its connection (Long.MAX_VALUE = never)
     * @param closeCode the application error code of that close (H3_NO_ERROR for HTTP/3, RFC 9114 §8.1)
     */
    public ClientConnection(QuicConnection connection, InetSocketAddress server, long deadline, LongSupplier clock,
                            long closeAt, long closeCode) {
        this.connection = connection;
        this.server = server;
        this.peers = List.of(new Peer(connection, server));
        this.deadline = deadline;
        this.clock = clock;
        this.closeAt = closeAt;
        this.closeCode = closeCode;
    }

    @Override
    public void receive(ByteBuffer datagram, InetSocketAddress from, long now, Replies replies) {
        if (from.equals(server)) {
            connection.receive(datagram, now);
            if (handshakeDone < 0 && connection.isHandshakeComplete()) {
                handshakeDone = now;
            }
        }
    }

    @Override
    public List<Peer> active() {
        if (!closedAtDuration && clock.getAsLong() >= closeAt && !connection.isTerminated()
                && connection.state() != QuicConnection.State.CLOSING) {
            connection.close(closeCode, "duration over");
            closedAtDuration = true;
        }
        return peers;
    }

    /** Whether this client closed its connection because its duration was over (it was still open then). */
    public boolean closedAtDuration() {
        return closedAtDuration;
    }

    @Override
    public boolean finished() {
        return connection.isTerminated() || clock.getAsLong() >= deadline;
    }

    public QuicConnection connection() {
        return connection;
    }

    /** Virtual time the handshake completed, or -1. */
    public long handshakeDone() {
        return handshakeDone;
    }
}
