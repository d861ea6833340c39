package org.pacelab.io.runtime;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;

import org.pacelab.quic.conn.QuicConnection;

/** What the event loop drives: a client's single connection or a server endpoint's many. */
public interface Connections {
    /** A connection and the address its datagrams go to. */
    record Peer(QuicConnection connection, InetSocketAddress address) {}

    /** A datagram arrived from {@code from} at {@code now}. */
    void receive(ByteBuffer datagram, InetSocketAddress from, long now, Replies replies);

    /**
     * A datagram arrived from {@code from} at {@code now} with the ECN codepoint {@code ecn} (0..3; -1 when the socket
     * cannot tell). By default the codepoint is not used.
     */
    default void receive(ByteBuffer datagram, InetSocketAddress from, int ecn, long now, Replies replies) {
        receive(datagram, from, now, replies);
    }

    /**
     * A datagram of a burst the loop read at once (one recvmmsg call, GRO segments): processed now, but the
     * application hears of it at {@link #endReceiveBurst}, once per burst. By default a burst of one.
     */
    default void receiveInBurst(ByteBuffer datagram, InetSocketAddress from, int ecn, long now, Replies replies) {
        receive(datagram, from, ecn, now, replies);
    }

    /**
     * {@link #receiveInBurst(ByteBuffer, InetSocketAddress, int, long, Replies)} of a datagram that arrived at {@code
     * receivedAt} (the kernel's receive time, on {@code now}'s clock, at most {@code now}), handled at {@code now}. By
     * default the arrival time is not used.
     */
    default void receiveInBurst(ByteBuffer datagram, InetSocketAddress from, int ecn, long receivedAt, long now,
                                Replies replies) {
        receiveInBurst(datagram, from, ecn, now, replies);
    }

    /**
     * {@link #receiveInBurst(ByteBuffer, InetSocketAddress, int, long, long, Replies)} of a datagram that arrived at the
     * local address {@code local}: null for the endpoint's first socket, else the address of another one (a server's
     * preferred address, RFC 9000 §9.6). By default the local address is not used.
     */
    default void receiveInBurst(ByteBuffer datagram, InetSocketAddress from, InetSocketAddress local, int ecn, long receivedAt,
                                long now, Replies replies) {
        receiveInBurst(datagram, from, ecn, receivedAt, now, replies);
    }

    /** Ends a burst of {@link #receiveInBurst} calls. */
    default void endReceiveBurst() {}

    /** Stateless replies to send right away (Version Negotiation, Retry, stateless reset). */
    interface Replies {
        void send(ByteBuffer datagram, InetSocketAddress to);
    }

    /** The connections to serve now, in the order they were accepted. */
    List<Peer> active();

    /** Called once per loop turn after sending; forget finished connections. */
    default void sweep() {}

    /** Whether the loop should end (e.g. the client's connection closed). */
    boolean finished();
}
