package org.pacelab.quic.conn;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.random.RandomGenerator;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.crypto.AeadException;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.InitialSecrets;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.packet.MalformedPacketException;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.packet.Retry;
import org.pacelab.quic.packet.StatelessReset;
import org.pacelab.quic.packet.VersionNegotiation;

/**
 * The server side of an endpoint (RFC 9000 §5.2): routes datagrams to connections by Destination Connection
 * ID, accepts new connections from Initial packets, and answers without state where the RFC asks: Version
 * Negotiation for unknown versions (§6.1), Retry when address validation is required (§8.1.2), stateless
 * reset for packets of unknown connections (§10.3). Sans-I/O: datagrams and addresses go in and out as values.
 */
public final class ServerEndpoint {

    /** Where stateless replies (Version Negotiation, Retry, stateless reset) go. */
    @FunctionalInterface
    public interface Replies {
        void send(ByteBuffer datagram, InetSocketAddress to);
    }

    /**
     * A connection and the path it talks on (which moves when the client's address changes, RFC 9000 §9.3, and when it
     * moves to our preferred address, §9.6).
     */
    public static final class Entry {
        public final QuicConnection connection;
        private InetSocketAddress peer;
        /** The local address the connection's datagrams leave from: null for the runtime's first socket. */
        private InetSocketAddress local;
        /** The address counted in {@link ServerEndpoint#unvalidated}: the one the client's first Initial came from. */
        private final InetSocketAddress firstPeer;
        final List<ByteKey> keys = new ArrayList<>();
        /** Counted in {@link ServerEndpoint#unvalidated} until the client's address is validated or the entry goes. */
        boolean unvalidated;

        Entry(QuicConnection connection, InetSocketAddress peer) {
            this.connection = connection;
            this.peer = peer;
            this.firstPeer = peer;
        }

        /** Where the connection's datagrams go now. */
        public InetSocketAddress peer() {
            return peer;
        }

        /** The local address they leave from, or null for the runtime's first socket. */
        public InetSocketAddress local() {
            return local;
        }

        /** Takes the connection's path after a datagram (it may have moved, RFC 9000 §9); returns whether it moved. */
        private boolean follow() {
            NetworkPath p = connection.path();
            if (p == null || p.remote().equals(peer) && java.util.Objects.equals(p.local(), local)) {
                return false;
            }
            peer = p.remote();
            local = p.local();
            return true;
        }
    }

    private record ByteKey(byte[] b) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ByteKey k && java.util.Arrays.equals(b, k.b);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(b);
        }
    }

    /**
     * How long a Retry token stays valid: from the Retry to the arrival of the client's Initial with it at this
     * endpoint's socket (the receive time the runtime passes with the datagram, not the later moment this endpoint gets
     * to process it: on a starved host Initials wait in the socket buffer). Measured on a loaded 2-core host (load
     * average 35-50) with the processing time as the age: 1,000 clients arriving at once had Initials with tokens queued
     * behind the handshakes for more than 30 s, and then, at load 46-51, more than 2 minutes. Two minutes is picoquic's
     * lifetime of a Retry token too; a token is bound to the client's address, port and first Destination Connection ID
     * (RFC 9000 §8.1.3), and a replay reaches only the connection already made for it.
     */
    static final long RETRY_TOKEN_LIFETIME = 120_000_000_000L;
    /** How many original DCIDs answered with a Retry are remembered (bounded memory; oldest forgotten first). */
    static final int RETRIED_REMEMBERED = 4096;

    private final ConnectionConfig config;
    private final Function<InetSocketAddress, ApplicationHandler> apps;
    private final RandomGenerator random;
    private final StatelessResetTokens resetTokens;
    private final RetryTokens retryTokens;
    private final boolean requireRetry;
    private final int maxConnections;
    private final UnvalidatedConnections.Counter unvalidated;
    private final Map<ByteKey, Entry> byCid = new HashMap<>();
    private final Map<QuicConnection, Entry> entries = new LinkedHashMap<>();
    /** Connections that received datagrams in the current burst, in order of arrival. */
    private final java.util.LinkedHashSet<QuicConnection> inBurst = new java.util.LinkedHashSet<>();
    /** Original DCIDs recently answered with a Retry, with when: a tokenless Initial for one gets a Retry again. */
    private final LinkedHashMap<ByteKey, Long> retried = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteKey, Long> eldest) {
            return size() > RETRIED_REMEMBERED;
        }
    };
    private long statelessResets;
    private long peerAddressChanges;
    private long versionNegotiations;
    private long retries;
    private long dropped;
    private long retriesForLimit;
    private long invalidTokens;
    private long accepted;
    private int connectionsPeak;
    private int unvalidatedPeak;

    /**
     * @param staticKey      endpoint secret for stateless reset and Retry tokens (at least 32 random bytes)
     * @param requireRetry   send Retry to validate every client address before creating state
     * @param maxConnections refuse new connections beyond this many
     */
    public ServerEndpoint(ConnectionConfig config, Function<InetSocketAddress, ApplicationHandler> apps,
                          RandomGenerator random, byte[] staticKey, boolean requireRetry, int maxConnections) {
        this(config, apps, random, staticKey, requireRetry, maxConnections, UnvalidatedConnections.DEFAULT);
    }

    /**
     * @param unvalidatedLimits how many connections may wait for address validation, per client IP address and in
     *                          all; beyond, new clients get a Retry (also without {@code requireRetry})
     */
    public ServerEndpoint(ConnectionConfig config, Function<InetSocketAddress, ApplicationHandler> apps,
                          RandomGenerator random, byte[] staticKey, boolean requireRetry, int maxConnections,
                          UnvalidatedConnections unvalidatedLimits) {
        this.config = config;
        this.apps = apps;
        this.random = random;
        this.resetTokens = new StatelessResetTokens(staticKey);
        this.retryTokens = new RetryTokens(staticKey, random, RETRY_TOKEN_LIFETIME);
        this.requireRetry = requireRetry;
        this.maxConnections = maxConnections;
        this.unvalidated = new UnvalidatedConnections.Counter(unvalidatedLimits);
    }

    /**
     * Handles one datagram. Returns the connection it went to (possibly new), or null when it was answered
     * statelessly or dropped.
     */
    public Entry receive(ByteBuffer datagram, InetSocketAddress from, long now, Replies replies) {
        return receive(datagram, from, -1, now, replies);
    }

    /**
     * Handles one datagram that arrived with the ECN codepoint {@code ecn} (-1: unknown; RFC 9000 §13.4.1). Returns the
     * connection it went to (possibly new), or null when it was answered statelessly or dropped.
     */
    public Entry receive(ByteBuffer datagram, InetSocketAddress from, int ecn, long now, Replies replies) {
        return receive(datagram, new NetworkPath(null, from), ecn, now, now, replies, false);
    }

    /**
     * Handles, at {@code now}, one datagram that arrived at {@code receivedAt} (the kernel's receive time of the datagram
     * on {@code now}'s clock; later than {@code now} counts as {@code now}). The age of a Retry token is judged by the
     * arrival: time the datagram then waited for this endpoint (a busy host, a long socket queue) does not expire it.
     */
    public Entry receive(ByteBuffer datagram, InetSocketAddress from, int ecn, long receivedAt, long now, Replies replies) {
        return receive(datagram, new NetworkPath(null, from), ecn, Math.min(receivedAt, now), now, replies, false);
    }

    /**
     * Handles one datagram of a burst the runtime read at once ({@link QuicConnection#receiveInBurst}); call
     * {@link #endReceiveBurst} after the burst's last datagram.
     */
    public Entry receiveInBurst(ByteBuffer datagram, InetSocketAddress from, int ecn, long now, Replies replies) {
        return receive(datagram, new NetworkPath(null, from), ecn, now, now, replies, true);
    }

    /**
     * {@link #receiveInBurst(ByteBuffer, InetSocketAddress, int, long, Replies)} of a datagram that arrived at {@code
     * receivedAt}: a Retry token's age is judged by the arrival ({@link #receive(ByteBuffer, InetSocketAddress, int,
     * long, long, Replies)}).
     */
    public Entry receiveInBurst(ByteBuffer datagram, InetSocketAddress from, int ecn, long receivedAt, long now,
                                Replies replies) {
        return receive(datagram, new NetworkPath(null, from), ecn, Math.min(receivedAt, now), now, replies, true);
    }

    /**
     * {@link #receiveInBurst(ByteBuffer, InetSocketAddress, int, long, long, Replies)} of a datagram that arrived at the
     * local address {@code local} (the socket it came in on: a server with a preferred address has two, RFC 9000 §9.6;
     * null for the runtime's first socket). Stateless replies go out from the same socket.
     */
    public Entry receiveInBurst(ByteBuffer datagram, InetSocketAddress from, InetSocketAddress local, int ecn, long receivedAt,
                                long now, Replies replies) {
        return receive(datagram, new NetworkPath(local, from), ecn, Math.min(receivedAt, now), now, replies, true);
    }

    /** Ends a burst: each connection that received datagrams in it tells its application. */
    public void endReceiveBurst() {
        for (QuicConnection c : inBurst) {
            c.endReceiveBurst();
        }
        inBurst.clear();
    }

    private void deliver(QuicConnection c, ByteBuffer datagram, int ecn, NetworkPath path, long now, boolean burst) {
        if (burst) {
            c.receiveInBurst(datagram, ecn, path, now);
            inBurst.add(c);
        } else {
            c.receive(datagram, ecn, path, now);
        }
    }

    private Entry receive(ByteBuffer datagram, NetworkPath path, int ecn, long receivedAt, long now,
                          Replies replies, boolean burst) {
        InetSocketAddress from = path.remote();
        ParsedPacket p;
        try {
            p = PacketParser.parse(datagram.duplicate(), datagram.position(), config.localCidLength());
        } catch (MalformedPacketException e) {
            dropped++;
            return null;
        }
        Entry e = byCid.get(new ByteKey(p.dcid()));
        if (e != null) {
            deliver(e.connection, datagram, ecn, path, now, burst);
            if (e.unvalidated && e.connection.isAddressValidated()) {
                e.unvalidated = false;
                unvalidated.remove(e.firstPeer.getAddress());
            }
            if (e.follow()) {
                // RFC 9000 §9.3, §9.6: the connection moved to the client's new address (a NAT rebinding or its migration)
                // or to our preferred address
                peerAddressChanges++;
            }
            return e;
        }
        int size = datagram.remaining();
        if (!p.supportedVersion() || p.type() != PacketType.ONE_RTT && !config.versions().contains(p.version())) {
            // RFC 9000 §6.1: answer with Version Negotiation, only for datagrams big enough to be Initials
            if (size >= ConnectionConfig.MIN_INITIAL_SIZE) {
                versionNegotiations++;
                int[] versions = new int[config.versions().size() + 1];
                for (int i = 0; i < config.versions().size(); i++) {
                    versions[i] = config.versions().get(i);
                }
                versions[versions.length - 1] = QuicVersion.reserved(random.nextInt());
                byte[] vn = VersionNegotiation.build(p.scid(), p.dcid(), versions, random.nextInt());
                replies.send(ByteBuffer.wrap(vn), from);
            } else {
                dropped++;
            }
            return null;
        }
        if (p.type() == PacketType.ONE_RTT) {
            sendStatelessReset(p, size, from, replies);
            return null;
        }
        if (p.type() != PacketType.INITIAL || size < ConnectionConfig.MIN_INITIAL_SIZE || p.dcid().length < 8) {
            // RFC 9000 §14.1: Initial datagrams are at least 1200 bytes; §7.2: the first DCID is at least 8 bytes
            dropped++;
            return null;
        }
        if (!initialAuthenticates(datagram, p)) {
            // create no state for an Initial that does not decrypt: noise must not cost memory
            dropped++;
            return null;
        }
        if (entries.size() >= maxConnections) {
            dropped++;
            return null;
        }
        // RFC 9000 §8.1.2, §21.1.1.2: beyond the caps on unvalidated state, validate the address with a Retry first
        boolean limited = unvalidated.full(from.getAddress());
        if (p.token().length > 0) {
            // the token's age at the datagram's arrival, not at its processing (the Retry was issued at the then `now`)
            RetryTokens.Validated v = retryTokens.validate(p.token(), from, p.dcid(), receivedAt);
            if (v != null) {
                Entry created = accept(path, p, v.originalDcid(), p.dcid(), now);
                deliver(created.connection, datagram, ecn, path, now, burst);
                return created;
            }
            invalidTokens++;
            if (retryTokens.issuedHere(p.token(), p.dcid()) || requireRetry && !limited) {
                // RFC 9000 §8.1.3: a client whose token from our Retry is no longer valid (it expired while the client
                // backed off, or it comes from another address) will not take a second Retry (§17.2.5.2), and a
                // connection without Retry fails its transport parameter check (§7.3): close the attempt with
                // INVALID_TOKEN, so the client learns at once instead of retrying into its idle timeout. A token we
                // did not seal cannot reach this at the cap, so the closing connections stay bounded by the Retries we
                // sent.
                Entry refused = accept(path, p, p.dcid(), null, now);
                refused.connection.abort(new QuicException(TransportError.INVALID_TOKEN, "invalid Retry token"), now);
                deliver(refused.connection, datagram, ecn, path, now, burst);
                return refused;
            }
            // §8.1.3: a token we did not issue (another server's, or forged): proceed as if the client had none —
            // at the cap that is a stateless Retry, not a silent drop
        }
        // a retransmission of an Initial we already answered with a Retry (it crossed the Retry, or the cap has eased
        // since): answer it the same way, or the client, which takes only the first Retry, meets two connections
        Long retriedAt = retried.get(new ByteKey(p.dcid()));
        boolean answeredWithRetry = retriedAt != null && receivedAt - retriedAt < RETRY_TOKEN_LIFETIME;
        if (requireRetry || limited || answeredWithRetry) {
            retries++;
            if (limited) {
                retriesForLimit++;
            }
            byte[] scid = newCid();
            byte[] token = retryTokens.issue(from, p.dcid(), scid, now);
            retried.put(new ByteKey(p.dcid().clone()), now);
            replies.send(ByteBuffer.wrap(Retry.build(p.version(), p.scid(), scid, p.dcid(), token)), from);
            return null;
        }
        Entry created = accept(path, p, p.dcid(), null, now);
        deliver(created.connection, datagram, ecn, path, now, burst);
        return created;
    }

    /**
     * Whether the Initial packet decrypts with the Initial keys of its Destination Connection ID (RFC 9001
     * §5.2), tried on a copy so the connection created afterwards sees the original bytes.
     */
    private static boolean initialAuthenticates(ByteBuffer datagram, ParsedPacket p) {
        int length = p.packetEnd() - p.headerStart();
        byte[] copy = new byte[length];
        datagram.get(p.headerStart(), copy);
        ByteBuffer b = ByteBuffer.wrap(copy);
        int pnOffset = p.pnOffset() - p.headerStart();
        PacketKeys keys = InitialSecrets.clientKeys(org.pacelab.quic.crypto.VersionProtection.of(p.version()), p.dcid());
        int pnLength = HeaderProtection.remove(b, 0, pnOffset, length, keys);
        if (pnLength < 0) {
            return false;
        }
        long pn = PacketNumbers.read(b, pnOffset, pnLength);
        int payload = pnOffset + pnLength;
        try {
            keys.open(b, 0, payload, payload, length - payload, pn);
            return true;
        } catch (AeadException e) {
            return false;
        }
    }

    private Entry accept(NetworkPath path, ParsedPacket p, byte[] originalDcid, byte[] retryScid, long now) {
        InetSocketAddress from = path.remote();
        byte[] cid = newCid();
        Entry[] holder = new Entry[1];
        LocalConnectionIds.Listener routing = new LocalConnectionIds.Listener() {
            @Override
            public void onIssued(byte[] c) {
                if (holder[0] == null) {
                    return; // issued while the connection is made (a preferred address's ID): routed below
                }
                ByteKey k = new ByteKey(c.clone());
                byCid.put(k, holder[0]);
                holder[0].keys.add(k);
            }

            @Override
            public void onRetired(byte[] c) {
                ByteKey k = new ByteKey(c);
                byCid.remove(k);
                holder[0].keys.remove(k);
            }
        };
        QuicConnection conn = QuicConnection.server(config, apps.apply(from), random, resetTokens, routing, cid,
                p.scid(), originalDcid, retryScid, p.version(), now);
        Entry e = new Entry(conn, from);
        e.local = path.local();
        holder[0] = e;
        entries.put(conn, e);
        accepted++;
        connectionsPeak = Math.max(connectionsPeak, entries.size());
        if (!conn.isAddressValidated()) {
            e.unvalidated = true;
            unvalidated.add(from.getAddress());
            unvalidatedPeak = Math.max(unvalidatedPeak, unvalidated.total());
        }
        // packets arrive for our chosen ID and, until the client switches, for the ID it picked (RFC 9000 §7.2)
        List<byte[]> routed = new ArrayList<>(conn.localConnectionIds());
        routed.add(p.dcid());
        for (byte[] k : routed) {
            ByteKey key = new ByteKey(k.clone());
            byCid.put(key, e);
            e.keys.add(key);
        }
        return e;
    }

    private void sendStatelessReset(ParsedPacket p, int size, InetSocketAddress from, Replies replies) {
        // RFC 9000 §10.3.3: smaller than the packet that triggered it, at least 21 bytes... only when large enough
        if (size <= StatelessReset.MIN_LENGTH || p.dcid().length == 0) {
            dropped++;
            return;
        }
        int length = Math.max(StatelessReset.MIN_LENGTH, Math.min(size - 1, 43));
        statelessResets++;
        replies.send(ByteBuffer.wrap(StatelessReset.build(length, resetTokens.tokenFor(p.dcid()), random)), from);
    }

    private byte[] newCid() {
        byte[] cid = new byte[config.localCidLength()];
        random.nextBytes(cid);
        return cid;
    }

    /** How often a connection moved to a new client address; the addresses of {@link #connections()} changed since. */
    public long peerAddressChanges() {
        return peerAddressChanges;
    }

    /** Live connections with their peers. */
    public Collection<Entry> connections() {
        return entries.values();
    }

    /** Forgets closed connections and their routes; returns those removed. */
    public List<Entry> removeClosed() {
        List<Entry> removed = new ArrayList<>();
        for (var it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.connection.isClosed()) {
                it.remove();
                for (ByteKey k : e.keys) {
                    byCid.remove(k, e);
                }
                if (e.unvalidated) {
                    e.unvalidated = false;
                    unvalidated.remove(e.firstPeer.getAddress());
                }
                removed.add(e);
            }
        }
        return removed;
    }

    /** Counters of stateless handling. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("retries_sent", retries);
        m.put("retries_for_unvalidated_limit", retriesForLimit);
        m.put("unvalidated_connections", (long) unvalidated.total());
        m.put("version_negotiations_sent", versionNegotiations);
        m.put("stateless_resets_sent", statelessResets);
        m.put("initials_with_invalid_token", invalidTokens);
        m.put("datagrams_dropped", dropped);
        m.put("peer_address_changes", peerAddressChanges);
        m.put("connections", (long) entries.size());
        m.put("connections_accepted", accepted);
        m.put("connections_peak", (long) connectionsPeak);
        m.put("unvalidated_connections_peak", (long) unvalidatedPeak);
        return m;
    }
}
