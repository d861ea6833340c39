package org.pacelab.lab.peer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.pacelab.lab.scenario.PeerDeclaration;
import org.pacelab.lab.scenario.Scenario;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.peers.build.PeerCache;

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
        return standard(PeerCache.standard());
    }

    /** Every peer of this build, the ones pacelab builds taken from {@code cache}. */
    public static PeerRegistry standard(PeerCache cache) {
        return new PeerRegistry(List.of(new PacelabPeer(), new Ngtcp2Peer(), new QuichePeer(), new KwikPeer(), new PicoquicPeer(cache), new AioquicPeer(cache), new QuicGoPeer(cache),
                new NginxPeer(), new CurlPeer(), new ChromiumPeer()));
    }

    /**
     * Every peer of this build and the peers the scenario declares by command line ({@link CommandLinePeer}); a declared
     * peer may not take a built-in peer's name.
     */
    public static PeerRegistry forScenario(Scenario scenario) throws ScenarioException {
        return standard().with(scenario.peers());
    }

    /** This registry and the declared peers. */
    public PeerRegistry with(List<PeerDeclaration> declared) throws ScenarioException {
        List<Peer> all = new ArrayList<>(peers.values());
        List<String> problems = new ArrayList<>();
        for (PeerDeclaration d : declared) {
            if (peers.containsKey(d.name().value())) {
                problems.add(d.name().at() + ": peers: '" + d.name().value() + "' is already a peer of pacelab; give the declared "
                        + "peer another name");
            } else {
                all.add(new CommandLinePeer(d));
            }
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems);
        }
        return new PeerRegistry(all);
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
