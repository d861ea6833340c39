package org.pacelab.net.spec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Links that reproduce known testbeds. Each is documented with its source in net/README.md ("Presets and their derivation").
 * <ul>
 * <li>{@code quic-steps}: the QUIC Steps study (Kempf et al., CoNEXT 2025), artifact script
 *   {@code framework/pre-post-scripts/set-rtt-netem.sh}: on the client's ingress (via ifb) a root
 *   {@code tbf rate 5mbps burst 1540b} (tc's mbps is bytes/s: 40 Mbit/s) whose child is
 *   {@code netem delay 20ms limit 143} (143 = 40 Mbit/s x 40 ms / 1392 B); on its egress
 *   {@code netem delay 20ms} (netem's default limit 1000). tbf charges the 14-byte Ethernet header that the
 *   ifb redirect keeps. The server's 1 GbE link to the tap is the wire model.</li>
 * <li>{@code interop-simple-p2p}: the QUIC Interop Runner's ns-3 scenario
 *   {@code simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25}: a point-to-point link of 10 Mbit/s with a
 *   15 ms channel (propagation) delay in each direction, applied after serialization; each device has a
 *   pfifo_fast queue disc of 25 packets in front of a 1-packet device queue, so 27 packets are held at most
 *   (25 + 1 + the one being transmitted); ns-3 adds a 2-byte PPP header per packet.</li>
 * <li>{@code none}: no shaping, only the 1 Gbit/s wire model on the server's side.</li>
 * </ul>
 */
public final class Presets {
    private Presets() {}

    private static final DirectionSpec BASE = DirectionSpec.UNSHAPED;
    private static final long MS = 1_000_000L;
    private static final long WIRE_1G = 1_000_000_000L;

    private static final Map<String, LinkSpec> PRESETS = new LinkedHashMap<>();

    static {
        DirectionSpec.Builder qsDown = BASE.toBuilder();
        qsDown.rateBps = 40_000_000L; qsDown.burstBytes = 1540; qsDown.overheadBytes = 14;
        qsDown.queue = QueueSpec.packets(143); qsDown.shared = true; qsDown.delayNs = 20 * MS; qsDown.wireBps = WIRE_1G;
        DirectionSpec.Builder qsUp = BASE.toBuilder();
        qsUp.queue = QueueSpec.packets(1000); qsUp.shared = true; qsUp.delayNs = 20 * MS;
        PRESETS.put("quic-steps", new LinkSpec("quic-steps", qsDown.build(), qsUp.build()));

        DirectionSpec.Builder p2p = BASE.toBuilder();
        p2p.rateBps = 10_000_000L; p2p.overheadBytes = 2; p2p.queue = QueueSpec.packets(27); p2p.delayNs = 15 * MS;
        DirectionSpec p2pUp = p2p.build();
        p2p.wireBps = WIRE_1G;
        PRESETS.put("interop-simple-p2p", new LinkSpec("interop-simple-p2p", p2p.build(), p2pUp));

        DirectionSpec.Builder none = BASE.toBuilder();
        none.wireBps = WIRE_1G;
        PRESETS.put("none", new LinkSpec("none", none.build(), BASE));
    }

    /** The preset with this name; the error lists the valid names. */
    public static LinkSpec get(String name) throws SpecException {
        LinkSpec s = PRESETS.get(name);
        if (s == null) throw new SpecException("unknown preset '" + name + "'; valid presets: " + String.join(", ", names()));
        return s;
    }

    public static java.util.Set<String> names() { return PRESETS.keySet(); }
}
