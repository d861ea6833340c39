package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pacelab.quic.tls.TlsConfig;

/**
 * The handshake survives the loss of any of its first datagrams, in either direction, alone or two in a row:
 * the probe timeout of each packet number space, the client's anti-deadlock probe (RFC 9002 §6.2.2.1), CRYPTO
 * retransmission per space and the HANDSHAKE_DONE retransmission are all exercised by one of these cases.
 */
class HandshakeLossTest {

    static Stream<Arguments> lostDatagrams() {
        List<Arguments> cases = new ArrayList<>();
        for (boolean toServer : new boolean[] {true, false}) {
            for (int first = 0; first < 8; first++) {
                cases.add(Arguments.of(toServer ? "client" : "server", first, 1));
                cases.add(Arguments.of(toServer ? "client" : "server", first, 2));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}''s datagrams {1}..+{2} lost")
    @MethodSource("lostDatagrams")
    void handshakeAndEchoCompleteDespiteEarlyLoss(String sender, int first, int count) throws Exception {
        byte[] msg = new byte[20_000];
        new Random(first).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"),
                TlsConfig.ALL_SUITES, 5_000_000L, 100 + first);
        int[] index = {0};
        java.util.function.UnaryOperator<byte[]> drop = d -> {
            int i = index[0]++;
            return i >= first && i < first + count ? null : d;
        };
        if (sender.equals("client")) {
            pair.toServerFilter = drop;
        } else {
            pair.toClientFilter = drop;
        }
        pair.start();
        assertTrue(pair.runUntil(() -> client.done() && pair.client.isHandshakeConfirmed(), 20_000_000_000L),
                "echo did not complete: client " + pair.client.state() + " " + pair.client.counters() + " server "
                        + (pair.server == null ? "none" : pair.server.state() + " " + pair.server.counters()));
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(pair.server.isHandshakeConfirmed());
    }
}
