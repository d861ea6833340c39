package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.tls.TlsConfig;

/**
 * Test harness: a client and a server connection joined by a virtual link with a one-way delay and
 * optional random loss, driven by a virtual clock. Deterministic for a given seed.
 */
final class ConnectionPair {
    /** A datagram on the link; {@code to} is the client address a server datagram was sent to (null toward the server). */
    private record InFlight(long deliverAt, long seq, boolean toServer, byte[] data, int ecn, java.net.InetSocketAddress to,
                            java.net.InetSocketAddress serverLocal) {
        InFlight(long deliverAt, long seq, boolean toServer, byte[] data, int ecn, java.net.InetSocketAddress to) {
            this(deliverAt, seq, toServer, data, ecn, to, SERVER_ADDRESS);
        }
    }

    /** The server's address in {@link #paths} mode. */
    static final java.net.InetSocketAddress SERVER_ADDRESS = new java.net.InetSocketAddress("198.51.100.1", 443);
    /**
     * Paths mode (RFC 9000 §9; with {@link #useEndpoint}): the connections are told the path of each datagram, and each
     * datagram goes where its {@link SendResult#path()} says: to {@link #SERVER_ADDRESS}, or to {@link #serverPreferred}
     * (the server's second address, its preferred address), from which the server's answers come back.
     */
    boolean paths;
    java.net.InetSocketAddress serverPreferred;
    /** When set, datagrams to {@link #serverPreferred} are lost (the preferred address is unreachable). */
    boolean preferredUnreachable;
    /** When set, datagrams the server sends from {@link #serverPreferred} are lost (the way back is broken). */
    boolean preferredRepliesLost;
    /** Told of every datagram a connection wrote (before loss and filters), with what {@code send} returned. */
    java.util.function.BiConsumer<QuicConnection, SendResult> onSend = (c, r) -> {};
    /** Told of every datagram delivered to the server in paths mode: the server address it arrived at. */
    java.util.function.Consumer<java.net.InetSocketAddress> onServerReceive = a -> {};

    /** What the virtual link does with the ECN field: hide it (the runtime cannot read it), keep it, clear it, mark CE. */
    enum EcnLink { HIDDEN, KEPT, BLEACHED, CE }

    EcnLink ecnLink = EcnLink.HIDDEN;

    long now = 1_000_000_000L;
    /** One-way delay of datagrams sent from now on (a test changes it to move the connection to a path of another length). */
    long oneWayDelay;
    double lossRate;
    /**
     * Datagrams that arrive at the same instant reach each endpoint as one burst (receiveInBurst, then
     * endReceiveBurst), as a runtime that reads several datagrams per system call hands them over.
     */
    boolean bursts;
    /**
     * The link's rate in each direction, bytes per second (0: unlimited): datagrams queue behind each other and
     * arrive spaced by their serialisation time, as through a bottleneck.
     */
    long rateBytesPerSecond;
    private long toClientFree;
    private long toServerFree;
    /** Extra delay per datagram, uniform in [0, jitter) ns; datagrams overtake each other when it exceeds their spacing. */
    long jitter;
    final SplittableRandom random;
    final ConnectionConfig clientConfig;
    final ConnectionConfig serverConfig;
    final ApplicationHandler clientApp;
    final ApplicationHandler serverApp;
    QuicConnection client;
    QuicConnection server;
    private final PriorityQueue<InFlight> link = new PriorityQueue<>((a, b) -> a.deliverAt != b.deliverAt
            ? Long.compare(a.deliverAt, b.deliverAt) : Long.compare(a.seq, b.seq));
    private long seq;
    private long clientWake = Long.MAX_VALUE;
    private long serverWake = Long.MAX_VALUE;
    final ByteBuffer buffer = ByteBuffer.allocate(65536);
    int datagramsToServer;
    int datagramsToClient;
    /**
     * Models a sender qdisc that honours send times (fq with SO_TXTIME): the server's datagrams enter the link at
     * their intended send time rather than when the connection released them, and the server is woken its pacing
     * look-ahead before the pacer's release time, as the runtime does.
     */
    boolean serverHonoursIntendedTimes;
    /** When set, the next datagrams to the server are replaced by this mutator's output (fuzzing). */
    java.util.function.UnaryOperator<byte[]> toServerFilter = d -> d;
    java.util.function.UnaryOperator<byte[]> toClientFilter = d -> d;

    ConnectionPair(ApplicationHandler clientApp, ApplicationHandler serverApp, List<String> alpn,
                   List<CipherSuite> clientSuites, long oneWayDelay, long seed) {
        this(clientApp, serverApp, baseConfig(alpn, TlsConfig.ALL_SUITES, false), baseConfig(alpn, clientSuites, true),
                oneWayDelay, seed);
    }

    ConnectionPair(ApplicationHandler clientApp, ApplicationHandler serverApp, ConnectionConfig serverConfig,
                   ConnectionConfig clientConfig, long oneWayDelay, long seed) {
        this.clientApp = clientApp;
        this.serverApp = serverApp;
        this.serverConfig = serverConfig;
        this.clientConfig = clientConfig;
        this.oneWayDelay = oneWayDelay;
        this.random = new SplittableRandom(seed);
    }

    static ConnectionConfig baseConfig(List<String> alpn, List<CipherSuite> suites, boolean client) {
        TlsConfig tls;
        if (client) {
            tls = TlsConfig.client(alpn, suites, "localhost", null, false);
        } else {
            TestCertificates.Identity id = TestCertificates.ec();
            tls = TlsConfig.server(alpn, suites, List.of(id.certificate()), id.key());
        }
        return ConnectionConfig.defaults(tls, CongestionConfig.fromOptions(java.util.Map.of("--cc", "newreno", "--pacer", "none")));
    }

    void start() throws Exception {
        StatelessResetTokens tokens = new StatelessResetTokens(new byte[32]);
        client = QuicConnection.client(clientConfig, clientApp, new SplittableRandom(random.nextLong()), tokens,
                noCids(), now);
        if (paths) {
            client.setPath(new NetworkPath(null, SERVER_ADDRESS));
        }
        flush();
    }

    /** Every datagram {@code c} has to send at {@code now}, in order (a 64 KiB buffer each). */
    static List<byte[]> datagrams(QuicConnection c, long now) {
        List<byte[]> out = new java.util.ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(65536);
        while (true) {
            buf.clear();
            if (!c.send(buf, now).wrote()) {
                return out;
            }
            buf.flip();
            byte[] d = new byte[buf.remaining()];
            buf.get(d);
            out.add(d);
        }
    }

    /**
     * The server connection a client's first Initial datagram opens at {@code now}, as an endpoint makes it: the
     * client's connection IDs and version from that datagram's first packet, the server's own ID 01..08, an
     * {@link EchoApps.Server}. The datagram is not delivered; the test does that.
     */
    static QuicConnection serverFor(ConnectionConfig config, StatelessResetTokens tokens, byte[] firstInitial, long now)
            throws org.pacelab.quic.packet.MalformedPacketException {
        ParsedPacket p = PacketParser.parse(ByteBuffer.wrap(firstInitial), 0, 8);
        return QuicConnection.server(config, new EchoApps.Server(), new SplittableRandom(2), tokens, noCids(),
                new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, p.scid(), p.dcid(), null, p.version(), now);
    }

    static LocalConnectionIds.Listener noCids() {
        return new LocalConnectionIds.Listener() {
            @Override public void onIssued(byte[] cid) { }
            @Override public void onRetired(byte[] cid) { }
        };
    }

    /** Runs until {@code done} holds or {@code maxVirtualNanos} elapsed; returns whether done. */
    boolean runUntil(BooleanSupplier done, long maxVirtualNanos) {
        long deadline = now + maxVirtualNanos;
        while (!done.getAsBoolean()) {
            long next = Math.min(link.isEmpty() ? Long.MAX_VALUE : link.peek().deliverAt,
                    Math.min(client.nextTimeout(), server == null ? Long.MAX_VALUE : server.nextTimeout()));
            next = Math.min(next, Math.min(clientWake, serverWake));
            if (next == Long.MAX_VALUE || next > deadline) {
                return done.getAsBoolean();
            }
            now = Math.max(now, next);
            while (!link.isEmpty() && link.peek().deliverAt <= now) {
                InFlight d = link.poll();
                deliver(d);
            }
            if (bursts) {
                client.endReceiveBurst();
                if (endpoint != null) {
                    endpoint.endReceiveBurst();
                } else if (server != null) {
                    server.endReceiveBurst();
                }
            }
            if (client.nextTimeout() <= now) {
                client.onTimeout(now);
            }
            if (server != null && server.nextTimeout() <= now) {
                server.onTimeout(now);
            }
            flush();
        }
        return true;
    }

    /** When set, datagrams to the server go through a ServerEndpoint (Retry, routing, stateless replies). */
    ServerEndpoint endpoint;
    static final java.net.InetSocketAddress CLIENT_ADDRESS = new java.net.InetSocketAddress("192.0.2.1", 5000);
    /** The address the client's datagrams come from (a test changes it to model a NAT rebinding). */
    java.net.InetSocketAddress clientAddress = CLIENT_ADDRESS;
    /**
     * When set, the NAT forgets a binding it changed: a server datagram sent to another address than the client's
     * current one is lost (also one already on its way when the address changes), as after a real NAT rebinding.
     */
    boolean natForgetsOldAddress;
    /** Server datagrams lost to a forgotten address. */
    int datagramsToOldAddress;
    /** When the client last sent a datagram and last received one (virtual time). */
    long clientLastSent = Long.MIN_VALUE;
    long clientLastReceived = Long.MIN_VALUE;

    /** Where the server's datagrams go: the address its endpoint follows, else the client's. */
    private java.net.InetSocketAddress serverSendsTo(QuicConnection c) {
        if (endpoint != null) {
            for (ServerEndpoint.Entry e : endpoint.connections()) {
                if (e.connection == c) {
                    return e.peer();
                }
            }
        }
        return clientAddress;
    }

    void useEndpoint(boolean retry) {
        byte[] key = new byte[32];
        random.nextBytes(key);
        endpoint = new ServerEndpoint(serverConfig, a -> serverApp, new SplittableRandom(random.nextLong()), key, retry, 100);
    }

    private void deliver(InFlight d) {
        if (d.toServer && endpoint != null) {
            ServerEndpoint.Replies replies = (datagram, to) -> {
                byte[] copy = new byte[datagram.remaining()];
                datagram.get(copy);
                link.add(new InFlight(now + oneWayDelay, seq++, false, copy, 0, to));
            };
            ServerEndpoint.Entry e;
            if (paths) {
                onServerReceive.accept(d.serverLocal);
                e = endpoint.receiveInBurst(ByteBuffer.wrap(d.data), clientAddress, d.serverLocal, ecnSeen(d), now, now, replies);
                if (!bursts) {
                    endpoint.endReceiveBurst();
                }
            } else {
                e = bursts
                        ? endpoint.receiveInBurst(ByteBuffer.wrap(d.data), clientAddress, ecnSeen(d), now, replies)
                        : endpoint.receive(ByteBuffer.wrap(d.data), clientAddress, ecnSeen(d), now, replies);
            }
            if (e != null) {
                server = e.connection;
            }
            return;
        }
        if (d.toServer) {
            if (server == null) {
                ParsedPacket p;
                try {
                    p = PacketParser.parse(ByteBuffer.wrap(d.data), 0, 8);
                } catch (Exception e) {
                    throw new IllegalStateException("first datagram to the server does not parse", e);
                }
                byte[] cid = new byte[8];
                random.nextBytes(cid);
                server = QuicConnection.server(serverConfig, serverApp, new SplittableRandom(random.nextLong()),
                        new StatelessResetTokens(new byte[32]), noCids(), cid, p.scid(), p.dcid(), null, p.version(), now);
            }
            receive(server, d.data, ecnSeen(d));
        } else if (natForgetsOldAddress && d.to != null && !d.to.equals(clientAddress)) {
            datagramsToOldAddress++;
        } else if (paths) {
            clientLastReceived = now;
            client.receive(ByteBuffer.wrap(d.data), ecnSeen(d), new NetworkPath(null, d.serverLocal), now);
        } else {
            clientLastReceived = now;
            receive(client, d.data, ecnSeen(d));
        }
    }

    private void receive(QuicConnection c, byte[] data, int ecn) {
        if (bursts) {
            c.receiveInBurst(ByteBuffer.wrap(data), ecn, now);
        } else {
            c.receive(ByteBuffer.wrap(data), ecn, now);
        }
    }

    private int ecnSeen(InFlight d) {
        return switch (ecnLink) {
            case HIDDEN -> -1;
            case KEPT -> d.ecn;
            case BLEACHED -> 0;
            case CE -> d.ecn != 0 ? 0b11 : 0;
        };
    }

    /** The stateless reset token the server announced in its transport parameters. */
    byte[] serverResetToken() {
        return server.statelessResetTokenForTest();
    }

    /** Delivers a datagram to the client right now. */
    void injectToClient(byte[] data) {
        client.receive(ByteBuffer.wrap(data), now);
    }

    /** Delivers a datagram to the server right now (as if it arrived from the client's address). */
    void injectToServer(byte[] data) {
        if (server != null) {
            server.receive(ByteBuffer.wrap(data), now);
        }
    }

    void flush() {
        clientWake = drain(client, false);
        if (server != null) {
            serverWake = drain(server, true);
        }
    }

    private long drain(QuicConnection c, boolean fromServer) {
        for (int i = 0; i < 10_000; i++) {
            buffer.clear();
            SendResult r = c.send(buffer, now);
            if (r.isBlockedByPacer()) {
                return fromServer && serverHonoursIntendedTimes
                        ? Math.max(now + 1, r.blockedUntil() - serverConfig.pacingLookahead()) : r.blockedUntil();
            }
            if (!r.wrote()) {
                return Long.MAX_VALUE;
            }
            byte[] data = new byte[r.length()];
            buffer.flip();
            buffer.get(data);
            onSend.accept(c, r);
            java.net.InetSocketAddress serverLocal = SERVER_ADDRESS;
            java.net.InetSocketAddress to = fromServer ? serverSendsTo(c) : null;
            if (paths && r.path() != null) {
                serverLocal = fromServer ? (r.path().local() == null ? SERVER_ADDRESS : r.path().local()) : r.path().remote();
                to = fromServer ? r.path().remote() : null;
            }
            if (!fromServer && preferredUnreachable && serverLocal.equals(serverPreferred)) {
                continue;
            }
            if (fromServer && preferredRepliesLost && serverLocal.equals(serverPreferred)) {
                continue;
            }
            data = fromServer ? toClientFilter.apply(data) : toServerFilter.apply(data);
            if (data == null || lossRate > 0 && random.nextDouble() < lossRate) {
                continue;
            }
            if (fromServer) {
                datagramsToClient++;
            } else {
                datagramsToServer++;
                clientLastSent = now;
            }
            long departure = fromServer && serverHonoursIntendedTimes ? Math.max(now, r.intendedSendTime()) : now;
            if (rateBytesPerSecond > 0) {
                long start = Math.max(departure, fromServer ? toClientFree : toServerFree);
                departure = start + data.length * 1_000_000_000L / rateBytesPerSecond;
                if (fromServer) {
                    toClientFree = departure;
                } else {
                    toServerFree = departure;
                }
            }
            long extra = jitter > 0 ? random.nextLong(jitter) : 0;
            link.add(new InFlight(departure + oneWayDelay + extra, seq++, !fromServer, data, c.ecnCodepoint(), to, serverLocal));
        }
        throw new IllegalStateException("connection kept sending without pause");
    }
}
