package org.pacelab.lab.peer;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The peers pacelab can drive, by the name scenarios use. */
public final class PeerRegistry {
    private final Map<String, Peer> peers = new LinkedHashMap<>();

    public PeerRegistry(List<Peer> list) {
        for (Peer p : list) {
            if (peers.put(p.name(), p) != null) {
                throw new IllegalArgumentException("two peers are named " + p.name());
            }
        }
    }

    /** Every peer of this build. */
    public static PeerRegistry standard() {
        String interop = "the peer program 'pacelab peer %s-server|client' is not in this build yet (branch interop)";
        return new PeerRegistry(List.of(
                new PacelabPeer(),
                new Ngtcp2Peer(),
                new NotInThisBuildPeer("quiche", "quiche through Netty's native QUIC codec (does not pace)", Protocol.H3,
                        EnumSet.allOf(Role.class), interop.formatted("quiche")),
                new NotInThisBuildPeer("kwik", "Kwik (NewReno, does not pace)", Protocol.H3, EnumSet.allOf(Role.class),
                        interop.formatted("kwik")),
                new NginxPeer(),
                new CurlPeer(),
                new ChromiumPeer()));
    }

    public Optional<Peer> get(String name) {
        return Optional.ofNullable(peers.get(name));
    }

    public List<Peer> all() {
        return List.copyOf(peers.values());
    }

    public List<String> names() {
        return List.copyOf(peers.keySet());
    }
}
