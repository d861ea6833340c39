package org.pacelab.lab.peer;

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
        return new PeerRegistry(List.of(new PacelabPeer(), new Ngtcp2Peer(), new QuichePeer(), new KwikPeer(), new NginxPeer(),
                new CurlPeer(), new ChromiumPeer()));
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
