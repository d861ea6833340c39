package org.pacelab.lab.interop;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The implementations the interop matrix can run, by name. */
public final class InteropEndpoints {
    private final Map<String, InteropEndpoint> byName = new LinkedHashMap<>();

    public InteropEndpoints(List<InteropEndpoint> endpoints) {
        for (InteropEndpoint e : endpoints) {
            byName.put(e.name(), e);
        }
    }

    /** Every endpoint of this build. */
    public static InteropEndpoints standard() {
        return new InteropEndpoints(List.of(new PacelabEndpoint(), new Ngtcp2Endpoint(), NettyKwikEndpoint.quiche(),
                NettyKwikEndpoint.kwik(), new PicoquicEndpoint(), ProgramEndpoint.aioquic(), ProgramEndpoint.quicGo()));
    }

    public Optional<InteropEndpoint> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public List<InteropEndpoint> all() {
        return List.copyOf(byName.values());
    }

    public List<String> names() {
        return List.copyOf(byName.keySet());
    }
}
