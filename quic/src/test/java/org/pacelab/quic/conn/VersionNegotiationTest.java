package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.TransportParameters.VersionInformation;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.QuicVersion;

/** {@link VersionNegotiation} on its own (RFC 9368 §4, RFC 9000 §6.2); whole connections are in VersionNegotiationV2Test. */
class VersionNegotiationTest {
    private static final int V1 = QuicVersion.V1;
    private static final int V2 = QuicVersion.V2;

    @Test
    void aServerSwitchesToItsFirstVersionTheClientOffers() throws QuicException {
        VersionNegotiation server = new VersionNegotiation(false, List.of(V2, V1), V1, new KeySchedule(false));
        assertTrue(server.negotiate(new VersionInformation(V1, new int[] {V1, V2})));
        assertEquals(V2, server.current());
        // the client's Initials in its original version still belong to the connection
        assertTrue(server.accept(PacketType.INITIAL, V1, false));
        assertFalse(server.accept(PacketType.HANDSHAKE, V1, false));
    }

    @Test
    void aServerStaysWhenItsPreferredVersionIsTheOneInUse() throws QuicException {
        VersionNegotiation server = new VersionNegotiation(false, List.of(V1, V2), V1, new KeySchedule(false));
        assertFalse(server.negotiate(new VersionInformation(V1, new int[] {V1, V2})));
        assertFalse(server.negotiate(null));
        assertEquals(V1, server.current());
    }

    @Test
    void aServerRefusesADowngrade() {
        VersionNegotiation server = new VersionNegotiation(false, List.of(V1, V2), V1, new KeySchedule(false));
        QuicException e = assertThrows(QuicException.class, () -> server.negotiate(new VersionInformation(V2, new int[] {V2})));
        assertEquals(TransportError.VERSION_NEGOTIATION_ERROR.code, e.errorCode());
    }

    @Test
    void aClientFollowsTheServersFirstInitialAndChecksItsChosenVersion() throws QuicException {
        VersionNegotiation client = new VersionNegotiation(true, List.of(V1, V2), V1, new KeySchedule(true));
        assertTrue(client.accept(PacketType.HANDSHAKE, V2, false));
        assertEquals(V1, client.current());
        assertTrue(client.accept(PacketType.INITIAL, V2, false));
        assertEquals(V2, client.current());
        assertFalse(client.negotiate(new VersionInformation(V2, new int[] {V2, V1})));
        assertThrows(QuicException.class, () -> client.negotiate(new VersionInformation(V1, new int[] {V1})));
        assertThrows(QuicException.class, () -> client.negotiate(null));
        // once the server's first packet was seen, other versions are not taken
        assertFalse(client.accept(PacketType.INITIAL, V1, true));
    }

    @Test
    void aVersionNegotiationPacketListingTheVersionInUseIsIgnored() {
        VersionNegotiation client = new VersionNegotiation(true, List.of(V1), V1, new KeySchedule(true));
        assertTrue(client.listsCurrent(new int[] {0x0a0a0a0a, V1}));
        assertFalse(client.listsCurrent(new int[] {V2}));
    }
}
