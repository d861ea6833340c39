package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.tls.TlsConfig;

/**
 * {@link InitialAckFirst} with a ClientHello split over two Initial datagrams (a large one, as a post-quantum key
 * share makes it; here a long ALPN list): the second datagram arriving while the first's CRYPTO data is held, after
 * the ACK left but before the TLS step, or after the TLS step; each way the server's TLS gets the whole ClientHello.
 */
class InitialAckFirstSplitHelloTest {
    private static final long MS = 1_000_000L;

    /** 0: the second datagram before the server's send; 1: after the ACK, before the TLS step; 2: after the TLS step. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void aClientHelloInTwoDatagramsReachesTlsWhole(int secondAt) throws Exception {
        List<String> clientAlpn = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            clientAlpn.add(("x" + i).repeat(100));
        }
        clientAlpn.add("hq-interop");
        ConnectionConfig clientConfig = ConnectionPair.baseConfig(clientAlpn, TlsConfig.ALL_SUITES, true);
        ConnectionConfig serverConfig = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
        StatelessResetTokens tokens = new StatelessResetTokens(new byte[32]);
        long t = 1_000 * MS;
        QuicConnection client = QuicConnection.client(clientConfig, new EchoApps.Client(new byte[1]),
                new SplittableRandom(1), tokens, ConnectionPair.noCids(), t);
        List<byte[]> hello = ConnectionPair.datagrams(client, t);
        assertEquals(2, hello.size(), "the ClientHello takes two datagrams");
        t += 10 * MS;
        QuicConnection server = ConnectionPair.serverFor(serverConfig, tokens, hello.get(0), t);
        server.receive(ByteBuffer.wrap(hello.get(0)), t);
        if (secondAt == 0) {
            server.receive(ByteBuffer.wrap(hello.get(1)), t);
        }
        List<byte[]> out = new ArrayList<>(ConnectionPair.datagrams(server, t));
        assertFalse(out.isEmpty(), "the ACK");
        assertFalse(server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE), "TLS waits for the ACK to leave");
        if (secondAt == 1) {
            server.receive(ByteBuffer.wrap(hello.get(1)), t);
            out.addAll(ConnectionPair.datagrams(server, t));
        }
        t += MS;
        assertTrue(server.nextTimeout() <= t, "the TLS step is due");
        server.onTimeout(t);
        if (secondAt == 2) {
            assertFalse(server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE), "half a ClientHello");
            out.addAll(ConnectionPair.datagrams(server, t));
            server.receive(ByteBuffer.wrap(hello.get(1)), t);
        }
        out.addAll(ConnectionPair.datagrams(server, t));
        assertTrue(server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE), "TLS processed the whole ClientHello");
        for (byte[] d : out) {
            client.receive(ByteBuffer.wrap(d), t + 10 * MS);
        }
        assertTrue(client.keySchedule().hasTx(EncryptionLevel.HANDSHAKE), "the client has the server's flight");
    }
}
