package org.pacelab.quic.conn;

import java.util.List;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.TransportParameters;
import org.pacelab.quic.crypto.VersionProtection;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.QuicVersion;

/**
 * The QUIC version a connection sends in (RFC 9000 §15, RFC 9369) and how it may change: compatible version
 * negotiation (RFC 9368 §4) from the first packets and the peer's version_information, and the client's reading of a
 * Version Negotiation packet (RFC 9000 §6.2). Switching the version switches the keys' version protection (salts and
 * labels, RFC 9369 §3).
 */
final class VersionNegotiation {
    private final boolean isClient;
    /** Our versions in preference order. */
    private final List<Integer> supported;
    /** The version the client's first Initial used (its Original Version, RFC 9368 §2.1). */
    private final int original;
    private final KeySchedule keys;
    /** The version packets are sent in (the Negotiated Version once negotiation is over). */
    private int current;

    VersionNegotiation(boolean isClient, List<Integer> supported, int version, KeySchedule keys) {
        this.isClient = isClient;
        this.supported = supported;
        this.original = version;
        this.current = version;
        this.keys = keys;
        keys.switchVersion(VersionProtection.of(version));
    }

    int current() {
        return current;
    }

    /**
     * Whether a long-header packet of {@code version}, not the one in use, belongs to this connection (RFC 9368 §4): the
     * server's first Initial in the version it negotiated (the client switches to it; its Handshake packets may come
     * first), or the client's Initials in its original version until it learned of the server's switch.
     */
    boolean accept(PacketType type, int version, boolean firstServerPacketSeen) {
        if (isClient && !firstServerPacketSeen && supported.contains(version)) {
            if (type == PacketType.INITIAL) {
                switchTo(version);
            }
            return type == PacketType.INITIAL || type == PacketType.HANDSHAKE;
        }
        return !isClient && type == PacketType.INITIAL && version == original;
    }

    /** RFC 9000 §6.2: a Version Negotiation packet that lists the version in use is ignored. */
    boolean listsCurrent(int[] versions) {
        for (int v : versions) {
            if (v == current) {
                return true;
            }
        }
        return false;
    }

    /**
     * Compatible version negotiation as the peer's version_information allows. A server switches to the first of its
     * versions the client offers — its Initial and every later packet then use it — and says so in its own
     * version_information; it refuses a client whose Chosen Version is not the version its first Initial came in (a
     * downgrade). A client checks that the server's Chosen Version is the version it now uses. Returns whether this
     * server switched (its transport parameters then change).
     */
    boolean negotiate(TransportParameters.VersionInformation peer) throws QuicException {
        if (isClient) {
            if (peer == null ? current != original : peer.chosenVersion() != current) {
                throw new QuicException(TransportError.VERSION_NEGOTIATION_ERROR, "the server's version_information "
                        + (peer == null ? "is missing" : "names version " + QuicVersion.name(peer.chosenVersion()))
                        + " and this connection uses " + QuicVersion.name(current) + " (RFC 9368 §4)");
            }
            return false;
        }
        if (peer == null) {
            return false;
        }
        if (peer.chosenVersion() != original) {
            throw new QuicException(TransportError.VERSION_NEGOTIATION_ERROR, "the client's version_information chose "
                    + QuicVersion.name(peer.chosenVersion()) + " but its first Initial was " + QuicVersion.name(original)
                    + " (RFC 9368 §4)");
        }
        for (int v : supported) {
            if (peer.offers(v)) {
                if (v != current) {
                    switchTo(v);
                    return true;
                }
                return false;
            }
        }
        return false;
    }

    private void switchTo(int version) {
        current = version;
        keys.switchVersion(VersionProtection.of(version));
    }
}
