package org.pacelab.sim;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.RandomStreams;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.conn.LocalConnectionIds;
import org.pacelab.quic.conn.QuicConnection;
import org.pacelab.quic.conn.StatelessResetTokens;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadOutput;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadResult;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.SyntheticContent;
import org.pacelab.quic.h3.H3ClientHandler;
import org.pacelab.quic.h3.H3Error;
import org.pacelab.quic.hq.HqClientHandler;
import org.pacelab.quic.tls.TlsConfig;
import org.pacelab.sim.host.ClientConnection;
import org.pacelab.sim.host.Host;
import org.pacelab.sim.host.PacketIds;
import org.pacelab.sim.output.QlogFiles;
import org.pacelab.sim.qdisc.Qdisc;
import org.pacelab.sim.qdisc.Qdiscs;
import org.pacelab.sim.random.RandomScope;

/**
 * The client of one client/server pair: its host, qdisc and connection downloading {@code /bytes/N} over h3 or
 * hq-interop (bodies counted and dropped, like {@code pacelab client} without -o), and what it received. Client i
 * is named {@code client} (i = 0) or {@code client-(i+1)}: its random streams are {@code NAME/quic}, {@code NAME/tls},
 * {@code NAME/host}, {@code NAME/qdisc}, {@code NAME/reset-key}, its counters {@code NAME_...}, its qlogs
 * {@code NAME-<DCID>.sqlog}. Its loop and connection start at the run's start plus the pair's start offset, and its
 * duration and timeout count from there.
 */
final class SimClient {
    final int index;
    final int flow;
    final DcFlowMode mode;
    final InetSocketAddress address;
    final String name;
    final RandomScope.Source tls;
    final Qdisc qdisc;
    final QuicConnection connection;
    final ClientConnection connections;
    final Host host;
    final QlogFiles qlogs;
    final List<DownloadResult> results = new ArrayList<>();
    /** Virtual time at which this client starts: the run's start plus its {@link SimScenario#flowStart(int)}. */
    final long start;
    private long bodyBytes;

    private SimClient(SimScenario s, int index, RandomStreams streams, SimNetwork network, PacketIds ids, QlogFiles qlogs)
            throws QuicException {
        this.index = index;
        this.flow = index + 1;
        this.mode = s.flows().get(index);
        this.address = s.clientAddress(index);
        this.name = index == 0 ? "client" : "client-" + (index + 1);
        this.start = Simulation.START + s.flowStart(index);
        this.qlogs = qlogs;
        this.tls = new RandomScope.Source(streams.stream(name + "/tls"));
        this.qdisc = Qdiscs.create(s.client().qdisc(), (p, t) -> network.transmit(Direction.UP, p, t),
                s.client().timing(), streams.stream(name + "/qdisc"));
        List<DownloadRequest> requests = new ArrayList<>();
        for (int i = 0; i < s.streams(); i++) {
            requests.add(DownloadRequest.of(URI.create("https://" + Simulation.format(s.serverAddress()) + SyntheticContent.PREFIX
                    + s.transferBytes())));
        }
        Host[] hostRef = new Host[1];
        LongSupplier clock = () -> hostRef[0].clock();
        DownloadListener listener = new DownloadListener() {
            @Override
            public void onDownloadFinished(DownloadResult result) { }

            @Override
            public void onAllFinished(List<DownloadResult> all) {
                results.addAll(all);
            }
        };
        DownloadSink sink = request -> new DownloadOutput() {
            @Override
            public void write(ByteBuffer data) {
                bodyBytes += data.remaining();
                data.position(data.limit());
            }

            @Override
            public void commit() { }

            @Override
            public void abort() { }
        };
        boolean h3 = s.alpn().equals("h3");
        ApplicationHandler app = h3 ? new H3ClientHandler(requests, sink, listener, clock)
                : new HqClientHandler(requests, sink, listener, clock);
        ConnectionConfig config = Simulation.connectionConfig(s, TlsConfig.client(List.of(s.alpn()), s.ciphers(),
                "localhost", null, false), s.client().sendPath().pacingLookahead());
        config = config.withAckElicitingThreshold(s.ackThreshold());
        if (s.ackThreshold() != ConnectionConfig.RFC_ACK_ELICITING_THRESHOLD) {
            // a study that fixes the client's ACK threshold keeps it: the client does not announce min_ack_delay, so
            // the server cannot change it with ACK_FREQUENCY (draft-ietf-quic-ack-frequency §3)
            config = config.withMinAckDelay(-1);
        }
        if (qlogs != null) {
            config = config.withQlog(qlogs);
        }
        RandomScope scope = RandomScope.ofCurrentThread();
        scope.use(tls);
        try {
            connection = QuicConnection.client(config, app, streams.stream(name + "/quic"),
                    new StatelessResetTokens(Simulation.bytes(streams, name + "/reset-key")), NO_ROUTING, start);
        } finally {
            scope.clear();
        }
        long closeAt = s.duration() > 0 ? start + s.duration() : Long.MAX_VALUE;
        connections = new ClientConnection(connection, s.serverAddress(), start + s.timeout(), clock, closeAt,
                h3 ? H3Error.H3_NO_ERROR.code : 0);
        host = new Host(name, connections, s.client(), qdisc, ids, a -> flow, streams.stream(name + "/host"), tls, start);
        hostRef[0] = host;
    }

    /** Client {@code index} of the scenario; its qlogs go to {@code qlogs} (null = none). */
    static SimClient create(SimScenario s, int index, RandomStreams streams, SimNetwork network, PacketIds ids,
                            QlogFiles qlogs) {
        try {
            return new SimClient(s, index, streams, network, ids, qlogs);
        } catch (QuicException e) {
            throw new IllegalStateException("simulated " + (index == 0 ? "client" : "client " + (index + 1))
                    + " could not start: " + e.getMessage(), e);
        }
    }

    /** Body bytes received so far (downloads finished or not). */
    long bodyBytes() {
        return bodyBytes;
    }

    /** Virtual time the client's loop ended, or {@code now} if it still runs. */
    long end(long now) {
        return host.stopped() ? host.stoppedAt() : now;
    }

    private static final LocalConnectionIds.Listener NO_ROUTING = new LocalConnectionIds.Listener() {
        @Override
        public void onIssued(byte[] cid) { }

        @Override
        public void onRetired(byte[] cid) { }
    };
}
