package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.tls.TlsConfig;

/** The caps on state for clients whose address is not validated yet (RFC 9000 §8.1, §21.1.1.2). */
class UnvalidatedConnectionsTest {
    private static final ConnectionConfig SERVER = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
    private static final ConnectionConfig CLIENT = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true);

    private static ServerEndpoint endpoint(boolean retry, UnvalidatedConnections limits) {
        return new ServerEndpoint(SERVER, a -> new EchoApps.Server(), new SplittableRandom(-7_777_777L), new byte[32], retry, 10_000, limits);
    }

    /** The first datagram of a fresh client (a padded Initial). */
    private static byte[] firstInitial(long seed) throws Exception {
        // seeds far from the endpoint's, so no client picks a connection ID the endpoint issued
        QuicConnection c = QuicConnection.client(CLIENT, new EchoApps.Client(new byte[1]), new SplittableRandom(1_000_000 + seed),
                new StatelessResetTokens(new byte[32]), ConnectionPair.noCids(), 0);
        ByteBuffer b = ByteBuffer.allocate(65536);
        c.send(b, 0);
        b.flip();
        byte[] d = new byte[b.remaining()];
        b.get(d);
        return d;
    }

    private static boolean isRetry(ByteBuffer datagram) throws Exception {
        return PacketParser.parse(datagram.duplicate(), datagram.position(), 8).type() == PacketType.RETRY;
    }

    @Test
    void oneAddressGetsItsShareThenRetries() throws Exception {
        ServerEndpoint e = endpoint(false, new UnvalidatedConnections(4, 100));
        List<ByteBuffer> replies = new ArrayList<>();
        int created = 0;
        for (int port = 1; port <= 1000; port++) {
            if (e.receive(ByteBuffer.wrap(firstInitial(port)), new InetSocketAddress("192.0.2.1", port), 0,
                    (d, to) -> replies.add(d)) != null) {
                created++;
            }
        }
        assertEquals(4, created);
        assertEquals(996, replies.size());
        for (ByteBuffer r : replies) {
            assertTrue(isRetry(r));
        }
        assertEquals(4L, e.counters().get("unvalidated_connections"));
        assertEquals(996L, e.counters().get("retries_for_unvalidated_limit"));
        // another host still gets its own share
        assertNotNull(e.receive(ByteBuffer.wrap(firstInitial(5000)), new InetSocketAddress("192.0.2.2", 1), 0, (d, to) -> { }));
    }

    @Test
    void manyAddressesShareTheTotal() throws Exception {
        ServerEndpoint e = endpoint(false, new UnvalidatedConnections(4, 8));
        int created = 0;
        int retries = 0;
        for (int host = 1; host <= 200; host++) {
            int[] r = {0};
            if (e.receive(ByteBuffer.wrap(firstInitial(host)), new InetSocketAddress("198.51.100." + host, 4433), 0,
                    (d, to) -> r[0]++) != null) {
                created++;
            }
            retries += r[0];
        }
        assertEquals(8, created);
        assertEquals(192, retries);
        assertEquals(8, e.connections().size());
    }

    @Test
    void aClientBeyondTheCapCompletesThroughRetry() throws Exception {
        byte[] msg = new byte[50_000];
        new SplittableRandom(3).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 41);
        pair.useEndpoint(false);
        // the client's host already holds its whole share of half-open connections (other source ports)
        int share = UnvalidatedConnections.DEFAULT.perAddress();
        for (int i = 0; i < share; i++) {
            assertNotNull(pair.endpoint.receive(ByteBuffer.wrap(firstInitial(100 + i)),
                    new InetSocketAddress(ConnectionPair.CLIENT_ADDRESS.getAddress(), 6000 + i), pair.now, (d, to) -> { }));
        }
        pair.start();
        assertTrue(pair.runUntil(client::done, 10_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        assertEquals(1L, pair.endpoint.counters().get("retries_for_unvalidated_limit"));
        assertEquals((long) share, pair.endpoint.counters().get("unvalidated_connections"),
                "the Retry-validated connection is not counted");
    }

    @Test
    void aValidatedHandshakeFreesItsPlace() throws Exception {
        EchoApps.Client client = new EchoApps.Client("x".getBytes());
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 42);
        pair.useEndpoint(false);
        pair.start();
        assertTrue(pair.runUntil(client::done, 10_000_000_000L));
        assertEquals(0L, pair.endpoint.counters().get("unvalidated_connections"));
        assertEquals(0L, pair.endpoint.counters().get("retries_sent"));
    }

    @Test
    void closedHalfOpenConnectionsAreForgotten() throws Exception {
        ServerEndpoint e = endpoint(false, new UnvalidatedConnections(2, 10));
        InetSocketAddress from = new InetSocketAddress("192.0.2.9", 1);
        for (int i = 0; i < 2; i++) {
            assertNotNull(e.receive(ByteBuffer.wrap(firstInitial(i)), new InetSocketAddress("192.0.2.9", 10 + i), 0, (d, to) -> { }));
        }
        assertNull(e.receive(ByteBuffer.wrap(firstInitial(9)), from, 0, (d, to) -> { }));
        // the clients never answer: the half-open connections time out and are swept
        long now = 0;
        for (int i = 0; i < 1000 && !e.connections().isEmpty(); i++) {
            long next = Long.MAX_VALUE;
            for (ServerEndpoint.Entry entry : e.connections()) {
                next = Math.min(next, entry.connection.nextTimeout());
            }
            now = Math.max(now + 1, next);
            for (ServerEndpoint.Entry entry : e.connections()) {
                if (entry.connection.nextTimeout() <= now) {
                    entry.connection.onTimeout(now);
                }
                ByteBuffer b = ByteBuffer.allocate(65536);
                while (entry.connection.send(b.clear(), now).wrote()) {
                    // discard what the server sends
                }
            }
            e.removeClosed();
        }
        assertTrue(e.connections().isEmpty());
        assertEquals(0L, e.counters().get("unvalidated_connections"));
        assertNotNull(e.receive(ByteBuffer.wrap(firstInitial(10)), from, now, (d, to) -> { }));
    }

    @Test
    void invalidTokensAtTheCapCreateNoState() throws Exception {
        ServerEndpoint e = endpoint(true, new UnvalidatedConnections(1, 10));
        // one attempt with a forged token is refused with INVALID_TOKEN (a closing connection: state)...
        byte[] forged = withToken(firstInitial(1));
        assertNotNull(e.receive(ByteBuffer.wrap(forged), new InetSocketAddress("192.0.2.5", 1), 0, (d, to) -> { }));
        // ... the next ones from that host, at the cap, are treated as tokenless (RFC 9000 §8.1.3): a stateless Retry
        List<ByteBuffer> replies = new ArrayList<>();
        for (int i = 2; i < 100; i++) {
            assertNull(e.receive(ByteBuffer.wrap(withToken(firstInitial(i))), new InetSocketAddress("192.0.2.5", i), 0, (d, to) -> replies.add(d)));
        }
        assertEquals(1, e.connections().size());
        assertEquals(98, replies.size());
        for (ByteBuffer r : replies) {
            assertTrue(isRetry(r));
        }
    }

    /**
     * A client that took our Retry but whose Initial with the token arrives after the token's lifetime (it backed off
     * on a busy server), while its host is at the cap: it learns at once, with INVALID_TOKEN (RFC 9000 §8.1.3),
     * instead of being dropped until its idle timeout.
     */
    @Test
    void anExpiredTokenFromOurRetryIsRefusedWithInvalidTokenAtTheCap() throws Exception {
        ServerEndpoint e = endpoint(false, new UnvalidatedConnections(1, 10));
        assertNotNull(e.receive(ByteBuffer.wrap(firstInitial(1)), new InetSocketAddress("192.0.2.20", 1), 0, (d, to) -> { }));
        InetSocketAddress from = new InetSocketAddress("192.0.2.20", 2);
        QuicConnection client = QuicConnection.client(CLIENT, new EchoApps.Client(new byte[1]), new SplittableRandom(2_000_000),
                new StatelessResetTokens(new byte[32]), ConnectionPair.noCids(), 0);
        List<ByteBuffer> replies = new ArrayList<>();
        assertNull(e.receive(ByteBuffer.wrap(firstFrom(client, 0)), from, 0, (d, to) -> replies.add(d)));
        assertEquals(1, replies.size());
        assertTrue(isRetry(replies.getFirst()));
        client.receive(replies.getFirst(), 1);
        long late = ServerEndpoint.RETRY_TOKEN_LIFETIME + 1_000_000_000L;
        ServerEndpoint.Entry refused = e.receive(ByteBuffer.wrap(firstFrom(client, late)), from, late, (d, to) -> { });
        assertNotNull(refused, "answered, not dropped");
        ByteBuffer close = ByteBuffer.allocate(65536);
        assertTrue(refused.connection.send(close, late).wrote());
        client.receive(close.flip(), late);
        assertTrue(client.isTerminated());
        assertEquals(org.pacelab.quic.TransportError.INVALID_TOKEN.code, client.closeErrorCode());
        assertEquals(1L, e.counters().get("initials_with_invalid_token"));
    }

    /**
     * RFC 9002 §6.3: a Retry resets the client's loss recovery, the PTO backoff too; kept, a client that waited long for
     * a busy server would send its Initial with the token only after its doubled PTOs, past the token's lifetime.
     */
    @Test
    void aRetryResetsTheClientsPtoBackoff() throws Exception {
        ServerEndpoint e = endpoint(true, UnvalidatedConnections.DEFAULT);
        InetSocketAddress from = new InetSocketAddress("192.0.2.30", 3);
        QuicConnection client = QuicConnection.client(CLIENT, new EchoApps.Client(new byte[1]), new SplittableRandom(3_000_000),
                new StatelessResetTokens(new byte[32]), ConnectionPair.noCids(), 0);
        byte[] initial = firstFrom(client, 0);
        long firstPto = client.nextTimeout();
        long now = 0;
        for (int i = 0; i < 4; i++) {
            // nobody answers: the client's PTO fires and backs off
            now = client.nextTimeout();
            client.onTimeout(now);
            firstFrom(client, now);
        }
        assertTrue(client.nextTimeout() - now >= 8 * firstPto, "backed off: " + (client.nextTimeout() - now));
        // the server's Retry to the first Initial arrives only now
        List<ByteBuffer> replies = new ArrayList<>();
        e.receive(ByteBuffer.wrap(initial), from, now, (d, to) -> replies.add(d));
        long at = now + 1_000_000;
        client.receive(replies.getFirst(), at);
        assertTrue(firstFrom(client, at).length >= 1200, "the Initial with the token");
        assertTrue(client.nextTimeout() - at <= firstPto, "after the Retry: " + (client.nextTimeout() - at) + " ns");
    }

    @Test
    void aRetransmissionOfARetriedInitialIsRetriedAgain() throws Exception {
        ServerEndpoint e = endpoint(false, new UnvalidatedConnections(1, 10));
        assertNotNull(e.receive(ByteBuffer.wrap(firstInitial(1)), new InetSocketAddress("192.0.2.7", 1), 0, (d, to) -> { }));
        byte[] second = firstInitial(2);
        List<ByteBuffer> replies = new ArrayList<>();
        assertNull(e.receive(ByteBuffer.wrap(second), new InetSocketAddress("192.0.2.7", 2), 0, (d, to) -> replies.add(d)));
        // the same Initial again, now from an address with room (a NAT rebinding, say): still a Retry, not a second
        // connection beside the one the client will open with the first Retry's token
        assertNull(e.receive(ByteBuffer.wrap(second), new InetSocketAddress("192.0.2.8", 2), 1, (d, to) -> replies.add(d)));
        assertEquals(2, replies.size());
        for (ByteBuffer r : replies) {
            assertTrue(isRetry(r));
        }
        assertEquals(1, e.connections().size());
    }

    /** A client Initial with a made-up token: what a client would send after a Retry that never came. */
    private static byte[] withToken(byte[] initial) throws Exception {
        QuicConnection c = QuicConnection.client(CLIENT, new EchoApps.Client(new byte[1]), new SplittableRandom(initial[20]),
                new StatelessResetTokens(new byte[32]), ConnectionPair.noCids(), 0);
        byte[] token = new byte[40];
        new SplittableRandom(initial[21]).nextBytes(token);
        byte[] dcid = new byte[8];
        new SplittableRandom(initial[22]).nextBytes(dcid);
        // a Retry from a server with another key: the client then sends its Initial with that server's token
        byte[] first = firstFrom(c);
        int dcidLength = first[5] & 0xff;
        byte[] odcid = java.util.Arrays.copyOfRange(first, 6, 6 + dcidLength);
        int scidAt = 6 + dcidLength;
        byte[] scid = java.util.Arrays.copyOfRange(first, scidAt + 1, scidAt + 1 + (first[scidAt] & 0xff));
        c.receive(ByteBuffer.wrap(org.pacelab.quic.packet.Retry.build(org.pacelab.quic.packet.QuicVersion.V1, scid, dcid, odcid, token)), 1);
        return firstFrom(c);
    }

    private static byte[] firstFrom(QuicConnection c) {
        return firstFrom(c, 1);
    }

    private static byte[] firstFrom(QuicConnection c, long now) {
        ByteBuffer b = ByteBuffer.allocate(65536);
        c.send(b, now);
        b.flip();
        byte[] d = new byte[b.remaining()];
        b.get(d);
        return d;
    }
}
