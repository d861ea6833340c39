package org.pacelab.sim;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.pacelab.io.runtime.EndpointConnections;
import org.pacelab.io.tls.Certificates;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.RandomStreams;
import org.pacelab.quic.app.AlpnSelectingHandler;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.ServerEndpoint;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.h3.H3ServerHandler;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.hq.HqServerHandler;
import org.pacelab.quic.tls.KeyLogSink;
import org.pacelab.quic.tls.TlsConfig;
import org.pacelab.sim.host.Host;
import org.pacelab.sim.host.PacketIds;
import org.pacelab.sim.qdisc.Qdisc;
import org.pacelab.sim.qdisc.Qdiscs;
import org.pacelab.sim.random.RandomScope;

/**
 * One simulated server: a host with its qdisc and one endpoint serving {@code /bytes/N} with the real runtime's
 * HTTP/3 and hq-interop handlers. With {@link SimScenario#serverPerFlow()} off, one such server serves every pair (the
 * relay's one server process) and is named {@code server}; with it on, pair i has its own (netns mode's one server
 * process per flow), named {@code server} for i = 0 and {@code server-(i+1)} otherwise, so that a single pair gets the
 * same random streams either way. Its random streams are {@code NAME/quic}, {@code NAME/tls}, {@code NAME/host},
 * {@code NAME/qdisc}, {@code NAME/endpoint-key}, its counters {@code NAME_...}, its qlogs {@code NAME-<DCID>.sqlog}.
 */
final class SimServer {
    final String name;
    final Qdisc qdisc;
    final EndpointConnections connections;
    final Host host;

    /**
     * @param name      {@code server} or {@code server-N}
     * @param flowOf    the flow id of the datagrams to a client address (the addresses this server may send to)
     * @param qlogs     where the server's qlogs go, or null for none
     */
    SimServer(SimScenario s, String name, RandomStreams streams, SimNetwork network, PacketIds ids,
              Certificates.Identity identity, KeyLogSink keys, ToIntFunction<InetSocketAddress> flowOf,
              Function<byte[], QlogSink> qlogs) {
        this.name = name;
        this.qdisc = Qdiscs.create(s.server().qdisc(), (p, t) -> network.transmit(Direction.DOWN, p, t),
                s.server().timing(), streams.stream(name + "/qdisc"));
        RandomScope.Source tls = new RandomScope.Source(streams.stream(name + "/tls"));
        ConnectionConfig config = Simulation.connectionConfig(s, TlsConfig.server(SimScenario.ALPNS, TlsConfig.ALL_SUITES,
                identity.chain(), identity.key()), s.server().sendPath().pacingLookahead())
                .withKeyUpdateInterval(s.keyUpdateInterval()).withKeyLog(keys);
        if (qlogs != null) {
            config = config.withQlog(qlogs);
        }
        ContentSource content = SyntheticContent.only();
        Map<String, Supplier<? extends ApplicationHandler>> handlers = new LinkedHashMap<>();
        handlers.put("h3", () -> new H3ServerHandler(content, r -> { }));
        handlers.put(HqServerHandler.ALPN, () -> new HqServerHandler(content, r -> { }));
        ServerEndpoint endpoint = new ServerEndpoint(config, from -> new AlpnSelectingHandler(handlers),
                streams.stream(name + "/quic"), Simulation.bytes(streams, name + "/endpoint-key"), false, 16);
        this.connections = new EndpointConnections(endpoint);
        this.host = new Host(name, connections, s.server(), qdisc, ids, flowOf, streams.stream(name + "/host"), tls,
                Simulation.START);
    }

    /** Whether this server has no connection left, nothing to send and nothing in its qdisc. */
    boolean done() {
        return connections.idle() && host.drained();
    }
}
