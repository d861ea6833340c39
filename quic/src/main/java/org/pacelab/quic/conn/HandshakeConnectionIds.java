package org.pacelab.quic.conn;

import java.util.Arrays;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.TransportParameters;

/**
 * The connection IDs of the handshake and their authentication (RFC 9000 §7.3): the client's original Destination
 * Connection ID, the peer's first Source Connection ID (a client takes the server's from its first Initial or
 * Handshake packet, §7.2), a Retry's Source Connection ID and token (§17.2.5), and the transport parameters that must
 * repeat them.
 */
final class HandshakeConnectionIds {
    private static final byte[] EMPTY = new byte[0];

    private final boolean isClient;
    private final byte[] originalDcid;
    /** The peer's Source Connection ID of its first packet; null on a client before it (and after a Retry). */
    private byte[] peerInitialScid;
    private boolean firstServerPacketSeen;
    private boolean retryReceived;
    private byte[] retryScid;
    private byte[] token = EMPTY;

    /** {@code peerInitialScid}: a server's client's Source Connection ID; null for a client. */
    HandshakeConnectionIds(boolean isClient, byte[] originalDcid, byte[] peerInitialScid) {
        this.isClient = isClient;
        this.originalDcid = originalDcid;
        this.peerInitialScid = peerInitialScid;
    }

    /** Client: whether a packet of the server's (Initial or Handshake) was processed. */
    boolean firstServerPacketSeen() {
        return firstServerPacketSeen;
    }

    /** Client: the server's first Initial or Handshake packet came from {@code scid}. */
    void onFirstServerPacket(byte[] scid) {
        firstServerPacketSeen = true;
        peerInitialScid = scid.clone();
    }

    /** RFC 9000 §17.2.5.2: a client accepts one Retry, before any other server packet. */
    boolean mayAcceptRetry() {
        return isClient && !retryReceived && !firstServerPacketSeen;
    }

    /** Client: a valid Retry from {@code scid} with {@code token}. */
    void onRetry(byte[] scid, byte[] token) {
        retryReceived = true;
        this.token = token.clone();
        this.retryScid = scid.clone();
        peerInitialScid = null;
    }

    /** Client: the token its Initial packets carry (from a Retry; empty without). */
    byte[] token() {
        return token;
    }

    /** Whether the peer uses a zero-length connection ID (then it must not send NEW_CONNECTION_ID, RFC 9000 §19.15). */
    boolean peerUsesZeroLengthCid() {
        return peerInitialScid != null && peerInitialScid.length == 0;
    }

    /**
     * RFC 9000 §7.3: the peer's transport parameters must repeat the connection IDs of the handshake.
     *
     * @throws QuicException TRANSPORT_PARAMETER_ERROR when one does not match or is missing
     */
    void authenticate(TransportParameters tp) throws QuicException {
        if (isClient) {
            if (!Arrays.equals(tp.originalDestinationConnectionId(), originalDcid)) {
                throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "original_destination_connection_id mismatch");
            }
            if (retryReceived ? !Arrays.equals(tp.retrySourceConnectionId(), retryScid) : tp.retrySourceConnectionId() != null) {
                throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "retry_source_connection_id mismatch");
            }
        }
        if (peerInitialScid != null && !Arrays.equals(tp.initialSourceConnectionId(), peerInitialScid)) {
            throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "initial_source_connection_id mismatch");
        }
        if (tp.initialSourceConnectionId() == null) {
            throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "initial_source_connection_id missing");
        }
    }
}
