package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.tls.TlsConfig;

/** Retry, key update, version negotiation, stateless reset, idle timeout and the amplification limit. */
class ConnectionLifecycleTest {

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void retryValidatesTheClientAddressAndTheTransferWorks() throws Exception {
        byte[] msg = bytes(100_000, 1);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 31);
        pair.useEndpoint(true);
        pair.start();
        assertTrue(pair.runUntil(client::done, 10_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        assertEquals(1L, pair.endpoint.counters().get("retries_sent"));
    }

    @Test
    void bothSidesInitiateAndFollowKeyUpdates() throws Exception {
        byte[] msg = bytes(2_000_000, 2);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false).withKeyUpdateInterval(300);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).withKeyUpdateInterval(200);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 32);
        pair.start();
        assertTrue(pair.runUntil(client::done, 30_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(pair.client.counters().get("key_updates") >= 3, "client key updates: " + pair.client.counters());
        assertTrue(pair.server.counters().get("key_updates") >= 3, "server key updates: " + pair.server.counters());
    }

    /** Answers each request stream, once its FIN arrived, with {@code size} bytes of a pattern (a download). */
    static final class DownloadServer implements ApplicationHandler {
        private final byte[] body;
        private final java.util.Map<Long, ByteBuffer> pending = new java.util.HashMap<>();
        private StreamTransport t;

        DownloadServer(byte[] body) {
            this.body = body;
        }

        @Override
        public void onConnected(StreamTransport transport) {
            t = transport;
        }

        @Override
        public void onStreamReadable(long id) {
            ByteBuffer b = ByteBuffer.allocate(4096);
            int n;
            while ((n = t.read(id, b.clear())) > 0) {
                // the request's content does not matter
            }
            if (n < 0 && !pending.containsKey(id)) {
                pending.put(id, ByteBuffer.wrap(body));
                onStreamWritable(id);
            }
        }

        @Override
        public void onStreamWritable(long id) {
            ByteBuffer rest = pending.get(id);
            if (rest != null && rest.hasRemaining()) {
                t.write(id, rest, true);
            }
        }
    }

    /**
     * The keyupdate case with quic-go's server: pacelab's downloading client sent 69 packets (ACKs, one per receive
     * burst on a loaded host) while receiving 2,338, so an interval counted in packets sent never came and it never
     * updated its keys. The interval counts packets sent and received in the key phase, as quic-go's does.
     */
    @Test
    void aDownloadingClientUpdatesItsKeysAfterTheIntervalInPacketsReceived() throws Exception {
        byte[] body = bytes(1_000_000, 7);
        EchoApps.Client client = new EchoApps.Client("GET /".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).withKeyUpdateInterval(200);
        ConnectionPair pair = new ConnectionPair(client, new DownloadServer(body), s, c, 5_000_000L, 36);
        // the unpaced server's flights arrive as bursts, each acknowledged once, as a runtime reading many at a time
        pair.bursts = true;
        pair.start();
        assertTrue(pair.runUntil(client::done, 30_000_000_000L));
        assertArrayEquals(body, client.replies[0]);
        assertTrue(pair.datagramsToServer < 200, "the client sent " + pair.datagramsToServer + " datagrams");
        assertTrue(pair.datagramsToClient > 600, "the client received " + pair.datagramsToClient + " datagrams");
        // the server never initiates (no interval), so the update is the client's; only one: the client's packets after
        // it are ACKs, which the server does not acknowledge, and RFC 9001 §6.1 allows no second update before that
        assertEquals(1L, pair.client.counters().get("key_updates"), "client: " + pair.client.counters());
        assertEquals(pair.client.counters().get("key_updates"), pair.server.counters().get("key_updates"));
    }

    @Test
    void clientGivesUpWhenTheServerOffersNoCommonVersion() throws Exception {
        EchoApps.Client client = new EchoApps.Client("x".getBytes());
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 33);
        // the "server" only speaks a version we do not: answer the first Initial with Version Negotiation
        pair.toServerFilter = d -> {
            byte[] dcid = java.util.Arrays.copyOfRange(d, 6, 6 + (d[5] & 0xff));
            int scidAt = 6 + dcid.length;
            byte[] scid = java.util.Arrays.copyOfRange(d, scidAt + 1, scidAt + 1 + (d[scidAt] & 0xff));
            byte[] vn = org.pacelab.quic.packet.VersionNegotiation.build(scid, dcid, new int[] {0x6b3343cf}, 0x42);
            pair.client.receive(ByteBuffer.wrap(vn), pair.now);
            return null;
        };
        pair.start();
        pair.runUntil(() -> client.closedCode >= 0, 5_000_000_000L);
        assertEquals(TransportError.CONNECTION_REFUSED.code, client.closedCode);
        assertTrue(pair.client.isClosed());
    }

    @Test
    void statelessResetEndsTheConnection() throws Exception {
        EchoApps.Client client = new EchoApps.Client("x".getBytes());
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 34);
        pair.useEndpoint(false);
        pair.start();
        assertTrue(pair.runUntil(client::done, 5_000_000_000L));
        // a server that lost the connection's state answers a packet with a stateless reset
        byte[] stale = MalformedInputTest.oneRttPacketFromClient(pair.client, new byte[] {0x01});
        byte[] reset = statelessResetFor(pair, stale);
        pair.client.receive(ByteBuffer.wrap(reset), pair.now);
        assertTrue(pair.client.isTerminated(), "client state " + pair.client.state());
        assertEquals("stateless reset", pair.client.closeReason());
    }

    private static byte[] statelessResetFor(ConnectionPair pair, byte[] packet) {
        // the token the server announced for its connection ID in its transport parameters
        byte[] token = pair.serverResetToken();
        return org.pacelab.quic.packet.StatelessReset.build(packet.length - 1, token, new java.util.SplittableRandom(1));
    }

    @Test
    void idleConnectionsCloseSilentlyAfterTheIdleTimeout() throws Exception {
        EchoApps.Client client = new EchoApps.Client("x".getBytes());
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false).withIdleTimeout(2_000_000_000L);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).withIdleTimeout(5_000_000_000L);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 35);
        pair.start();
        assertTrue(pair.runUntil(client::done, 5_000_000_000L));
        long done = pair.now;
        assertTrue(pair.runUntil(() -> pair.client.isClosed() && pair.server.isClosed(), 10_000_000_000L));
        long idle = pair.now - done;
        // the smaller of the two timeouts applies (RFC 9000 §10.1)
        assertTrue(idle >= 1_900_000_000L && idle <= 2_100_000_000L, "closed after " + idle + " ns");
        assertEquals("idle timeout", pair.client.closeReason());
    }

    @Test
    void serverSendsAtMostThreeTimesWhatItReceivedBeforeValidation() throws Exception {
        EchoApps.Client client = new EchoApps.Client("x".getBytes());
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 36);
        int[] fromClient = {0};
        // drop everything the client sends after its first datagram: the server may not exceed 3x
        pair.toServerFilter = d -> fromClient[0]++ == 0 ? d : null;
        long[] toClientBytes = {0};
        pair.toClientFilter = d -> {
            toClientBytes[0] += d.length;
            return d;
        };
        pair.start();
        pair.runUntil(() -> false, 3_000_000_000L);
        assertTrue(toClientBytes[0] <= 3 * 1200, "server sent " + toClientBytes[0] + " bytes for one 1200-byte datagram");
        assertTrue(toClientBytes[0] > 0);
    }
}
