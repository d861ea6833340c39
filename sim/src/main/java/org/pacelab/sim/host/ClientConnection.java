package org.pacelab.sim.host;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;

import org.pacelab.io.runtime.Connections;
import org.pacelab.quic.conn.QuicConnection;

/**
 * A client's single connection as the event loop sees it, like {@code QuicClient}'s: datagrams from the server go
 * to it, the handshake's completion time is noted, and the loop ends when the connection is terminated or the
 * client's timeout passes.
 */
public final class ClientConnection implements Connections {
    private final QuicConnection connection;
    private final InetSocketAddress server;
    private final List<Peer> peers;
    private final long deadline;
    private final LongSupplier clock;
    private long handshakeDone = -1;

    /** @param deadline virtual time at which the client gives up */
    public ClientConnection(QuicConnection connection, InetSocketAddress server, long deadline, LongSupplier clock) {
        this.connection = connection;
        this.server = server;
        this.peers = List.of(new Peer(connection, server));
        this.deadline = deadline;
        this.clock = clock;
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
    public Collection<Peer> active() {
        return peers;
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
