package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A Retry token's age is judged when the client's Initial arrived at the server's socket (the receive time the runtime
 * passes), not when the server got to process it (RFC 9000 §8.1.3 leaves the lifetime to the server; on a starved host
 * Initials wait in the socket buffer long after they arrived).
 */
class RetryTokenAgeTest {
    private static final ConnectionConfig SERVER = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
    private static final ConnectionConfig CLIENT = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true);
    private static final long MS = 1_000_000L;
    private static final InetSocketAddress FROM = new InetSocketAddress("192.0.2.30", 4000);

    /** A server that requires Retry, a client, and the client's Initial with the token of the server's Retry (sent at 2 ms). */
    private record Setup(ServerEndpoint server, QuicConnection client, byte[] initialWithToken) {
        static Setup make() throws Exception {
            ServerEndpoint server = new ServerEndpoint(SERVER, a -> new EchoApps.Server(), new SplittableRandom(-5L),
                    new byte[32], true, 10_000);
            QuicConnection client = QuicConnection.client(CLIENT, new EchoApps.Client(new byte[1]), new SplittableRandom(3_000_000),
                    new StatelessResetTokens(new byte[32]), ConnectionPair.noCids(), 0);
            List<ByteBuffer> replies = new ArrayList<>();
            assertNull(server.receive(ByteBuffer.wrap(datagram(client, 0)), FROM, -1, 0, 0, (d, to) -> replies.add(d)));
            assertEquals(1, replies.size());
            ByteBuffer retry = replies.getFirst();
            assertEquals(PacketType.RETRY, PacketParser.parse(retry.duplicate(), retry.position(), 8).type());
            client.receive(retry, 1 * MS);
            return new Setup(server, client, datagram(client, 2 * MS));
        }
    }

    private static byte[] datagram(QuicConnection c, long now) {
        ByteBuffer b = ByteBuffer.allocate(65536);
        assertTrue(c.send(b, now).wrote());
        b.flip();
        byte[] d = new byte[b.remaining()];
        b.get(d);
        return d;
    }

    /** The server's first answer to the connection, as the client takes it. */
    private static void answer(ServerEndpoint.Entry entry, QuicConnection client, long serverNow) {
        ByteBuffer b = ByteBuffer.allocate(65536);
        assertTrue(entry.connection.send(b, serverNow).wrote());
        client.receive(b.flip(), 4 * MS);
    }

    @Test
    void aTokenThatArrivedInTimeIsAcceptedHoweverLateItIsProcessed() throws Exception {
        Setup s = Setup.make();
        long arrived = 3 * MS;
        long processed = ServerEndpoint.RETRY_TOKEN_LIFETIME + 60_000 * MS; // a minute past the lifetime, counted from 0
        ServerEndpoint.Entry e = s.server().receive(ByteBuffer.wrap(s.initialWithToken()), FROM, -1, arrived, processed,
                (d, to) -> { });
        assertNotNull(e);
        assertTrue(e.connection.isAddressValidated(), "validated by the token");
        assertEquals(0L, s.server().counters().get("initials_with_invalid_token"));
        answer(e, s.client(), processed);
        assertFalse(s.client().isTerminated(), "the client goes on with the handshake");
    }

    @Test
    void aBurstReadAtOnceIsJudgedByArrivalToo() throws Exception {
        Setup s = Setup.make();
        long processed = ServerEndpoint.RETRY_TOKEN_LIFETIME + 60_000 * MS;
        ServerEndpoint.Entry e = s.server().receiveInBurst(ByteBuffer.wrap(s.initialWithToken()), FROM, -1, 3 * MS, processed,
                (d, to) -> { });
        s.server().endReceiveBurst();
        assertNotNull(e);
        assertTrue(e.connection.isAddressValidated(), "validated by the token");
        assertEquals(0L, s.server().counters().get("initials_with_invalid_token"));
    }

    @Test
    void theSameInitialJudgedAtItsProcessingTimeWouldHaveExpired() throws Exception {
        Setup s = Setup.make();
        long processed = ServerEndpoint.RETRY_TOKEN_LIFETIME + 60_000 * MS;
        // a runtime that knows no receive time passes the processing time: the token is too old then
        ServerEndpoint.Entry e = s.server().receive(ByteBuffer.wrap(s.initialWithToken()), FROM, -1, processed,
                (d, to) -> { });
        assertNotNull(e, "refused with INVALID_TOKEN, not dropped");
        assertEquals(1L, s.server().counters().get("initials_with_invalid_token"));
        answer(e, s.client(), processed);
        assertTrue(s.client().isTerminated());
        assertEquals(TransportError.INVALID_TOKEN.code, s.client().closeErrorCode());
    }

    @Test
    void aTokenThatArrivedAfterItsLifetimeIsRefused() throws Exception {
        Setup s = Setup.make();
        long arrived = ServerEndpoint.RETRY_TOKEN_LIFETIME + 1 * MS;
        ServerEndpoint.Entry e = s.server().receive(ByteBuffer.wrap(s.initialWithToken()), FROM, -1, arrived, arrived + 5 * MS,
                (d, to) -> { });
        assertNotNull(e);
        assertEquals(1L, s.server().counters().get("initials_with_invalid_token"));
        answer(e, s.client(), arrived + 5 * MS);
        assertEquals(TransportError.INVALID_TOKEN.code, s.client().closeErrorCode());
    }

    @Test
    void aReceiveTimeLaterThanNowCountsAsNow() throws Exception {
        Setup s = Setup.make();
        long now = 3 * MS;
        // a clock error in the runtime's receive time must not age a token past what processing it now would
        ServerEndpoint.Entry e = s.server().receive(ByteBuffer.wrap(s.initialWithToken()), FROM, -1,
                ServerEndpoint.RETRY_TOKEN_LIFETIME + 60_000 * MS, now, (d, to) -> { });
        assertNotNull(e);
        assertTrue(e.connection.isAddressValidated());
        assertEquals(0L, s.server().counters().get("initials_with_invalid_token"));
    }
}
