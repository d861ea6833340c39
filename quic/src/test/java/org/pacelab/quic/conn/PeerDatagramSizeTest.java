package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A client announcing a smaller max_udp_payload_size than the server's own: the server's maximum datagram size drops
 * to it when the client's transport parameters arrive, and its controller, told so, starts from the initial window
 * recalculated with the new size (RFC 9002 §7.2), not the one computed from its own larger size.
 */
class PeerDatagramSizeTest {

    @ParameterizedTest
    @ValueSource(strings = {"newreno", "cubic", "bbr"})
    void theServerFollowsTheClientsSmallerSize(String cc) throws Exception {
        byte[] msg = new byte[200_000];
        new Random(3).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        CongestionConfig congestion = CongestionConfig.fromOptions(java.util.Map.of("--cc", cc, "--pacer", "none"));
        ConnectionConfig server = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false)
                .toBuilder().congestion(congestion).build().withMaxUdpPayloadSize(1452);
        ConnectionConfig clientConfig = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true)
                .withMaxUdpPayloadSize(1200);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), server, clientConfig, 10_000_000L, 5);
        List<Integer> sizes = new ArrayList<>();
        pair.toClientFilter = d -> {
            sizes.add(d.length);
            return d;
        };
        pair.start();
        // the server's TLS step (its ClientHello's transport parameters) comes after its ACK of the client's Initial
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE),
                1_000_000_000L), "the server did not process the ClientHello");
        assertEquals(1200, pair.server.maxDatagramSize());
        assertEquals(12_000, pair.server.recovery().congestionController().congestionWindow(),
                "10 * 1200, not 10 * 1452 = 14 520");
        assertTrue(pair.runUntil(client::done, 60_000_000_000L), "transfer did not complete");
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(sizes.stream().allMatch(s -> s <= 1200), "RFC 9000 §18.2: no datagram above the client's limit");
    }
}
