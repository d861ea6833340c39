package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.TransportParameters;

/** {@link HandshakeConnectionIds}: RFC 9000 §7.3's authentication of the handshake's connection IDs. */
class HandshakeConnectionIdsTest {
    private static final byte[] ODCID = {1, 2, 3, 4, 5, 6, 7, 8};
    private static final byte[] SERVER_SCID = {9, 9, 9, 9};
    private static final byte[] RETRY_SCID = {7, 7, 7, 7};

    private static TransportParameters.Builder server() {
        return TransportParameters.builder().originalDestinationConnectionId(ODCID).initialSourceConnectionId(SERVER_SCID);
    }

    @Test
    void aClientAcceptsTheServersParametersThatRepeatTheIds() throws QuicException {
        HandshakeConnectionIds ids = new HandshakeConnectionIds(true, ODCID, null);
        ids.onFirstServerPacket(SERVER_SCID);
        ids.authenticate(server().build());
        assertTrue(ids.firstServerPacketSeen());
        assertFalse(ids.mayAcceptRetry());
    }

    @Test
    void aClientRefusesAnotherOriginalDcidOrInitialScid() {
        HandshakeConnectionIds ids = new HandshakeConnectionIds(true, ODCID, null);
        ids.onFirstServerPacket(SERVER_SCID);
        QuicException e = assertThrows(QuicException.class,
                () -> ids.authenticate(server().originalDestinationConnectionId(new byte[8]).build()));
        assertEquals(TransportError.TRANSPORT_PARAMETER_ERROR.code, e.errorCode());
        assertThrows(QuicException.class, () -> ids.authenticate(server().initialSourceConnectionId(new byte[4]).build()));
        assertThrows(QuicException.class, () -> ids.authenticate(server().initialSourceConnectionId(null).build()));
    }

    @Test
    void afterARetryTheServerMustNameItsSourceConnectionId() throws QuicException {
        HandshakeConnectionIds ids = new HandshakeConnectionIds(true, ODCID, null);
        assertTrue(ids.mayAcceptRetry());
        assertArrayEquals(new byte[0], ids.token());
        ids.onRetry(RETRY_SCID, new byte[] {42});
        assertFalse(ids.mayAcceptRetry());
        assertArrayEquals(new byte[] {42}, ids.token());
        assertThrows(QuicException.class, () -> ids.authenticate(server().build()));
        ids.onFirstServerPacket(SERVER_SCID);
        ids.authenticate(server().retrySourceConnectionId(RETRY_SCID).build());
    }

    @Test
    void withoutARetryARetrySourceConnectionIdIsRefused() {
        HandshakeConnectionIds ids = new HandshakeConnectionIds(true, ODCID, null);
        ids.onFirstServerPacket(SERVER_SCID);
        assertThrows(QuicException.class, () -> ids.authenticate(server().retrySourceConnectionId(RETRY_SCID).build()));
    }

    @Test
    void aServerChecksTheClientsInitialSourceConnectionId() throws QuicException {
        byte[] clientScid = {5, 5};
        HandshakeConnectionIds ids = new HandshakeConnectionIds(false, ODCID, clientScid);
        ids.authenticate(TransportParameters.builder().initialSourceConnectionId(clientScid).build());
        assertThrows(QuicException.class,
                () -> ids.authenticate(TransportParameters.builder().initialSourceConnectionId(new byte[] {6}).build()));
        assertFalse(ids.mayAcceptRetry());
        assertTrue(new HandshakeConnectionIds(false, ODCID, new byte[0]).peerUsesZeroLengthCid());
    }
}
