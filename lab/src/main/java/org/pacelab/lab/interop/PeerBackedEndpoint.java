package org.pacelab.lab.interop;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.peer.Availability;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.peer.Peer;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.peer.Role;

/** An interop endpoint of a peer the campaign runner knows: availability and version come from that peer. */
abstract class PeerBackedEndpoint implements InteropEndpoint {
    private final Peer peer;

    PeerBackedEndpoint(String peerName) {
        this.peer = PeerRegistry.standard().get(peerName).orElseThrow();
    }

    /** The peer this endpoint drives. */
    Peer peer() {
        return peer;
    }

    @Override
    public String name() {
        return peer.name();
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return peer.availability(role, host, pacelab);
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        return peer.version(role, host, pacelab);
    }

    @Override
    public boolean writesKeyLog(Role role) {
        return peer.writesKeyLog(role);
    }

    static String address(java.net.InetSocketAddress a) {
        String h = a.getAddress().getHostAddress();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + a.getPort();
    }
}
