package org.pacelab.net.relay;

import java.net.InetSocketAddress;
import org.pacelab.net.sys.UdpSocket;

/**
 * One client 5-tuple crossing the relay: the client's address as seen on the listening socket and the relay's
 * own socket toward the server, so the server sees one distinct client per flow.
 */
final class RelayFlow {
    final int id;
    final InetSocketAddress client;
    final UdpSocket serverSide;
    final InetSocketAddress serverSideLocal;
    long lastActive;

    RelayFlow(int id, InetSocketAddress client, UdpSocket serverSide, InetSocketAddress serverSideLocal) {
        this.id = id;
        this.client = client;
        this.serverSide = serverSide;
        this.serverSideLocal = serverSideLocal;
    }
}
