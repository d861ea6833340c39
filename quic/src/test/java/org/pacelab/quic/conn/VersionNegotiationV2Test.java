package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.tls.TlsConfig;

/** QUIC v2 (RFC 9369) through compatible version negotiation (RFC 9368 §4), as the Interop Runner's v2 case. */
class VersionNegotiationV2Test {
    private record Run(ConnectionPair pair, List<Integer> clientVersions, List<Integer> serverVersions) {}

    private static Run run(List<Integer> serverVersions, List<Integer> clientVersions, long seed) throws Exception {
        byte[] msg = new byte[30_000];
        new java.util.Random(seed).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false).withVersions(serverVersions);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).withVersions(clientVersions);
        ConnectionPair p = new ConnectionPair(client, new EchoApps.Server(), s, c, 10_000_000L, seed);
        List<Integer> fromClient = new ArrayList<>();
        List<Integer> fromServer = new ArrayList<>();
        p.toServerFilter = d -> record(d, fromClient);
        p.toClientFilter = d -> record(d, fromServer);
        p.start();
        assertTrue(p.runUntil(client::done, 5_000_000_000L), "echo did not complete: client " + p.client.closeReason());
        assertArrayEquals(msg, client.replies[0]);
        return new Run(p, fromClient, fromServer);
    }

    /** Records the version of the datagram's first packet when it has a long header. */
    private static byte[] record(byte[] d, List<Integer> versions) {
        if ((d[0] & 0x80) != 0) {
            versions.add(ByteBuffer.wrap(d, 1, 4).getInt());
        }
        return d;
    }

    @Test
    void aServerPreferringV2SwitchesAClientThatOffersIt() throws Exception {
        Run r = run(List.of(QuicVersion.V2, QuicVersion.V1), List.of(QuicVersion.V1, QuicVersion.V2), 1);
        assertEquals(QuicVersion.V2, r.pair().client.version());
        assertEquals(QuicVersion.V2, r.pair().server.version());
        assertEquals(QuicVersion.V1, (int) r.clientVersions().getFirst(), "the client starts with v1");
        assertTrue(r.serverVersions().stream().allMatch(v -> v == QuicVersion.V2), "every server long header is v2");
        assertEquals(QuicVersion.V2, (int) r.clientVersions().getLast(), "the client follows the server to v2");
    }

    @Test
    void aServerPreferringV1StaysWithIt() throws Exception {
        Run r = run(List.of(QuicVersion.V1, QuicVersion.V2), List.of(QuicVersion.V1, QuicVersion.V2), 2);
        assertEquals(QuicVersion.V1, r.pair().server.version());
        assertTrue(r.serverVersions().stream().allMatch(v -> v == QuicVersion.V1));
    }

    /**
     * A client preferring v2 still starts in v1 (every server speaks it) and offers v2 first in its version_information:
     * servers that take the client's first compatible version (aioquic's, picoquic's) kept v1 while pacelab's client
     * started with its first version and so had to list v1 first.
     */
    @Test
    void aClientPreferringV2StartsInV1AndIsMovedToV2() throws Exception {
        Run r = run(List.of(QuicVersion.V2, QuicVersion.V1), List.of(QuicVersion.V2, QuicVersion.V1), 4);
        assertEquals(QuicVersion.V1, (int) r.clientVersions().getFirst(), "the client starts with v1");
        assertEquals(QuicVersion.V2, r.pair().client.version());
        assertTrue(r.serverVersions().stream().allMatch(v -> v == QuicVersion.V2), "every server long header is v2");
    }

    @Test
    void aClientsOriginalVersionIsV1WhenItSpeaksV1() {
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true);
        assertEquals(QuicVersion.V1, c.withVersions(List.of(QuicVersion.V2, QuicVersion.V1)).clientOriginalVersion());
        assertEquals(QuicVersion.V1, c.withVersions(List.of(QuicVersion.V1, QuicVersion.V2)).clientOriginalVersion());
        assertEquals(QuicVersion.V2, c.withVersions(List.of(QuicVersion.V2)).clientOriginalVersion());
    }

    @Test
    void aClientStartingWithV2IsServedInV2() throws Exception {
        Run r = run(List.of(QuicVersion.V1, QuicVersion.V2), List.of(QuicVersion.V2), 3);
        assertEquals(QuicVersion.V2, r.pair().server.version());
        assertFalse(r.clientVersions().contains(QuicVersion.V1));
    }
}
