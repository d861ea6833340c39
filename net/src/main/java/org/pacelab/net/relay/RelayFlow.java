package org.pacelab.net.relay;

import java.net.InetSocketAddress;
import org.pacelab.net.sys.UdpSocket;

/**
 * One client 5-tuple crossing the relay: the listening socket it came in on (its route), the client's address as
 * seen there, and the relay's current binding toward the route's server, so the server sees one distinct client per
 * flow. NAT rebinding replaces the binding; each binding has its own flow id in the link model and the event log.
 */
final class RelayFlow {
    final RelayRoute route;
    final UdpSocket listen;
    final InetSocketAddress client;
    Binding binding;
    /** Rebindings applied so far. */
    long rebinds;
    long lastActive;

    /**
     * The relay's socket toward the server for a flow, and the flow id packets through it carry.
     *
     * @param local the socket's address: the client address the server sees
     */
    record Binding(int id, RelayFlow flow, UdpSocket socket, InetSocketAddress local) { }

    RelayFlow(RelayRoute route, UdpSocket listen, InetSocketAddress client) {
        this.route = route;
        this.listen = listen;
        this.client = client;
    }

    /** The current binding's flow id. */
    int id() {
        return binding.id();
    }
}
