package org.pacelab.io.runtime;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.conn.ServerEndpoint;

/** A server's connections: a {@link ServerEndpoint} as the event loop sees it (the server never finishes); used by
 * {@link QuicServer} and by the simulator's hosts. */
public final class EndpointConnections implements Connections {
    private final ServerEndpoint endpoint;
    private final List<Peer> peers = new ArrayList<>();
    private int lastSize = -1;
    private long lastAddressChanges;

    public EndpointConnections(ServerEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public void receive(ByteBuffer datagram, InetSocketAddress from, long now, Replies replies) {
        endpoint.receive(datagram, from, now, replies::send);
    }

    @Override
    public void receive(ByteBuffer datagram, InetSocketAddress from, int ecn, long now, Replies replies) {
        endpoint.receive(datagram, from, ecn, now, replies::send);
    }

    @Override
    public void receiveInBurst(ByteBuffer datagram, InetSocketAddress from, int ecn, long now, Replies replies) {
        endpoint.receiveInBurst(datagram, from, ecn, now, replies::send);
    }

    @Override
    public void receiveInBurst(ByteBuffer datagram, InetSocketAddress from, int ecn, long receivedAt, long now,
                               Replies replies) {
        endpoint.receiveInBurst(datagram, from, ecn, receivedAt, now, replies::send);
    }

    @Override
    public void receiveInBurst(ByteBuffer datagram, InetSocketAddress from, InetSocketAddress local, int ecn, long receivedAt,
                               long now, Replies replies) {
        endpoint.receiveInBurst(datagram, from, local, ecn, receivedAt, now, replies::send);
    }

    @Override
    public void endReceiveBurst() {
        endpoint.endReceiveBurst();
    }

    @Override
    public List<Peer> active() {
        if (endpoint.connections().size() != lastSize || endpoint.peerAddressChanges() != lastAddressChanges) {
            peers.clear();
            for (ServerEndpoint.Entry e : endpoint.connections()) {
                peers.add(new Peer(e.connection, e.peer()));
            }
            lastSize = peers.size();
            lastAddressChanges = endpoint.peerAddressChanges();
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

    /** Whether the endpoint holds no connection any more. */
    public boolean idle() {
        return endpoint.connections().isEmpty();
    }
}
