package org.pacelab.net.relay;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.spec.LinkSpec;

/**
 * What the UDP relay runs.
 *
 * @param routes       listening addresses and the servers behind them (at least one)
 * @param link         the link between clients and servers, or null when {@code dc} is given
 * @param dc           a dual-connectivity link (two downlink paths, one uplink), or null for {@code link}
 * @param seed         scenario seed
 * @param tap          pcapng capture at the server's side (null: none)
 * @param snaplen      bytes kept per captured packet (0: all)
 * @param eventLog     event log (null: none)
 * @param bufferBytes  UDP socket buffers asked for
 * @param spinNanos    how long before an event the driver stops sleeping and spins
 * @param maxFlows     client 5-tuples served at once
 * @param maxInside    packets the link may hold before the relay drops new arrivals (bounds memory)
 * @param realtime     run the driving thread SCHED_FIFO (root)
 * @param rebinding    NAT rebinding of the flows toward the servers ({@link Rebinding#NONE}: none)
 */
public record RelayConfig(List<RelayRoute> routes, LinkSpec link, DcSpec dc, long seed, Path tap, int snaplen,
                          Path eventLog, int bufferBytes, long spinNanos, int maxFlows, int maxInside, boolean realtime,
                          Rebinding rebinding) {
    public RelayConfig {
        routes = List.copyOf(routes);
        if (routes.isEmpty()) throw new IllegalArgumentException("the relay needs at least one route");
        if ((link == null) == (dc == null)) throw new IllegalArgumentException("give either a link or a dual-connectivity link");
        if (rebinding == null) rebinding = Rebinding.NONE;
    }

    /** Without rebinding. */
    public RelayConfig(List<RelayRoute> routes, LinkSpec link, DcSpec dc, long seed, Path tap, int snaplen,
                       Path eventLog, int bufferBytes, long spinNanos, int maxFlows, int maxInside, boolean realtime) {
        this(routes, link, dc, seed, tap, snaplen, eventLog, bufferBytes, spinNanos, maxFlows, maxInside, realtime, Rebinding.NONE);
    }

    /** The same relay with {@code r} as its rebinding. */
    public RelayConfig withRebinding(Rebinding r) {
        return new RelayConfig(routes, link, dc, seed, tap, snaplen, eventLog, bufferBytes, spinNanos, maxFlows, maxInside, realtime, r);
    }

    /** One route over a single-path link. */
    public RelayConfig(InetSocketAddress listen, InetSocketAddress server, LinkSpec link, long seed, Path tap, int snaplen,
                       Path eventLog, int bufferBytes, long spinNanos, int maxFlows, int maxInside, boolean realtime) {
        this(List.of(new RelayRoute(listen, server, DcFlowMode.DUAL)), link, null, seed, tap, snaplen, eventLog, bufferBytes,
                spinNanos, maxFlows, maxInside, realtime, Rebinding.NONE);
    }

    /** The first route's listening address. */
    public InetSocketAddress listen() { return routes.get(0).listen(); }

    /** The first route's server. */
    public InetSocketAddress server() { return routes.get(0).server(); }
}
