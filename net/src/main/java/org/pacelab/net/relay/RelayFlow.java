package org.pacelab.net.relay;

import java.net.InetSocketAddress;
import org.pacelab.net.sys.UdpSocket;

/**
 * One client 5-tuple crossing the relay: the listening socket it came in on (its route), the client's address as
 * seen there, and the relay's own socket toward the route's server, so the server sees one distinct client per flow.
 */
final class RelayFlow {
    final int id;
    final RelayRoute route;
    final UdpSocket listen;
    final InetSocketAddress client;
    final UdpSocket serverSide;
    final InetSocketAddress serverSideLocal;
    long lastActive;

    RelayFlow(int id, RelayRoute route, UdpSocket listen, InetSocketAddress client, UdpSocket serverSide,
              InetSocketAddress serverSideLocal) {
        this.id = id;
        this.route = route;
        this.listen = listen;
        this.client = client;
        this.serverSide = serverSide;
        this.serverSideLocal = serverSideLocal;
    }
}
