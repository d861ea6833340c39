package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
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
    /** Whether the datagram holds a 1-RTT (short header) packet, alone or coalesced after long-header ones. */
    private static boolean holdsOneRtt(byte[] d) {
        ByteBuffer b = ByteBuffer.wrap(d);
        int at = 0;
        try {
            while (at < d.length) {
                if ((d[at] & 0x80) == 0) {
                    return true;
                }
                at = org.pacelab.quic.packet.PacketParser.parse(b, at, 8).packetEnd();
            }
        } catch (Exception e) {
            throw new IllegalStateException("a client datagram that does not parse", e);
        }
        return false;
    }

    /**
     * handshakeloss, aioquic's server and pacelab's client (issue 16): the client's first 1-RTT datagram (its request,
     * with its Finished) is lost, and every server datagram is lost from when the server completes the handshake
     * until it has the request, HANDSHAKE_DONE included, as aioquic's was, which then probed with bare PINGs. Without
     * HANDSHAKE_DONE the client has no 1-RTT PTO (RFC 9002 §6.2.1), and its Handshake probes reach a server that
     * dropped those keys. Its Handshake probes carry a 1-RTT probe with the request coalesced (§6.2.4), so the
     * server gets it.
     */
    @Test
    void aClientWithoutHandshakeDoneProbesItsRequestInOneRttToo() throws Exception {
        byte[] msg = new byte[5_000];
        new Random(5).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, List.of("hq-interop"), TlsConfig.ALL_SUITES, 5_000_000L, 150);
        boolean[] requestLost = {false};
        int[] probesWithRequest = {0};
        pair.toServerFilter = d -> {
            if (!holdsOneRtt(d)) {
                return d;
            }
            if (!requestLost[0]) {
                requestLost[0] = true;
                return null;
            }
            if (!pair.client.isHandshakeConfirmed()) {
                probesWithRequest[0]++;
            }
            return d;
        };
        pair.toClientFilter = d -> pair.server != null && pair.server.isHandshakeConfirmed() && server.received.isEmpty()
                ? null : d;
        pair.start();
        assertTrue(pair.runUntil(client::done, 20_000_000_000L), "client " + pair.client.counters() + " "
                + pair.client.closeReason() + ", server " + (pair.server == null ? "none" : pair.server.counters()));
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(requestLost[0]);
        assertTrue(probesWithRequest[0] > 0, "1-RTT datagrams before HANDSHAKE_DONE: " + probesWithRequest[0]);
    }
}
