package org.pacelab.quic.conn;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A network path as RFC 9000 §1.2 defines it, the pair of this endpoint's address and the peer's, as values: the runtime
 * says on which path a datagram arrived ({@link QuicConnection#receiveInBurst(java.nio.ByteBuffer, int, NetworkPath, long)})
 * and the connection says on which one each datagram it writes goes ({@link SendResult#path()}). No socket is behind it.
 *
 * @param local  the local address the datagram arrived at or leaves from; null for a runtime with one socket (its own)
 * @param remote the peer's address
 */
public record NetworkPath(InetSocketAddress local, InetSocketAddress remote) {
    public NetworkPath {
        Objects.requireNonNull(remote, "remote");
    }

    /** Whether {@code other} has the same local address (both null counts as the same: the runtime's one socket). */
    boolean sameLocal(NetworkPath other) {
        return Objects.equals(local, other.local);
    }

    /**
     * Whether this endpoint's IP address is the same in {@code other} (only its port may differ; both null counts as the
     * same): a server that moves to its preferred address changes its own address (§9.4, §9.6).
     */
    boolean sameLocalHost(NetworkPath other) {
        if (local == null || other.local == null) {
            return local == other.local;
        }
        return local.getAddress() != null && local.getAddress().equals(other.local.getAddress());
    }

    /** RFC 9000 §9.4: whether the peer's IP address is the same in {@code other} (only its port may differ). */
    boolean samePeerHost(NetworkPath other) {
        return remote.getAddress() != null && remote.getAddress().equals(other.remote.getAddress());
    }
}
