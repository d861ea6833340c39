package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A bulk transfer fills every datagram it can to exactly the maximum size, also when a retransmitted range at a
 * small offset needs a shorter STREAM header than the bound: UDP GSO cuts a buffer into equal segments, so the
 * runtime can only put consecutive datagrams of equal size into one buffer.
 */
class FullDatagramSizeTest {

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 0.05})
    void bulkDatagramsHaveTheMaximumSize(double lossRate) throws Exception {
        byte[] msg = new byte[1_500_000];
        new Random(4).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES,
                10_000_000L, 8);
        List<Integer> sizes = new ArrayList<>();
        pair.toClientFilter = d -> {
            sizes.add(d.length);
            return d;
        };
        pair.lossRate = lossRate;
        pair.start();
        assertTrue(pair.runUntil(client::done, 120_000_000_000L), "transfer did not complete");
        assertArrayEquals(msg, client.replies[0]);
        int max = pair.server.maxDatagramSize();
        long full = sizes.stream().filter(s -> s == max).count();
        long nearlyFull = sizes.stream().filter(s -> s > max - 24 && s < max).count();
        assertEquals(0, nearlyFull, "datagrams a few bytes short of " + max + " waste room and break GSO buffers");
        assertTrue(full >= msg.length / max, "the echo needs at least " + msg.length / max + " full datagrams, got " + full);
    }

    @Test
    void aPeersSmallerMaxUdpPayloadSizeReachesTheController() throws Exception {
        byte[] msg = new byte[100_000];
        new Random(5).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionConfig server = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
        ConnectionConfig small = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true)
                .withMaxUdpPayloadSize(1252);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), server, small, 10_000_000L, 9);
        List<Integer> sizes = new ArrayList<>();
        pair.toClientFilter = d -> {
            sizes.add(d.length);
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(client::done, 60_000_000_000L), "transfer did not complete");
        assertEquals(1252, pair.server.maxDatagramSize());
        // the server learned the size from the client's transport parameters: recovery, the controller and the
        // pacer were told (RFC 9002 §7.2); the client's own size never changed
        assertEquals(1252, pair.server.recovery().maxDatagramSize());
        assertEquals(0, pair.client.recovery().maxDatagramSize());
        assertTrue(sizes.stream().allMatch(s -> s <= 1252), "a datagram above the client's max_udp_payload_size");
    }
}
