package org.pacelab.quic.conn;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportParameters;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.SentPacket;
import org.pacelab.quic.tls.TlsHandshake;

/**
 * A client's 0-RTT (RFC 9001 §4.6): it starts with the limits the server announced in the connection the session
 * ticket came from (RFC 9000 §7.4.1) and ends when the 1-RTT keys arrive (RFC 9001 §4.9.3); if the server rejected it,
 * every 0-RTT packet is lost to it and its stream data goes again in 1-RTT packets (§4.6.2; the streams are kept, not
 * reset — the server accepted the same ALPN and its new transport parameters now apply).
 */
final class EarlyData {
    private final ConnectionConfig config;
    private final KeySchedule keys;
    private final TlsHandshake tls;
    private final ConnectionStreams streams;
    private final Recovery recovery;
    private final SentPacketFate fate;
    private boolean rejected;

    EarlyData(ConnectionConfig config, KeySchedule keys, TlsHandshake tls, ConnectionStreams streams, Recovery recovery,
              SentPacketFate fate) {
        this.config = config;
        this.keys = keys;
        this.tls = tls;
        this.streams = streams;
        this.recovery = recovery;
        this.fate = fate;
    }

    /**
     * Applies the remembered transport parameters; returns whether 0-RTT goes ahead (not when the ticket's parameters
     * cannot be read: then the 0-RTT keys are discarded).
     */
    boolean start() {
        TransportParameters remembered;
        try {
            remembered = TransportParameters.decode(config.tls().resumption().serverTransportParameters(), true);
        } catch (QuicException e) {
            keys.discard(EncryptionLevel.ZERO_RTT); // a ticket from elsewhere: no 0-RTT without its limits
            return false;
        }
        streams.onPeerTransportParameters(remembered);
        return true;
    }

    /** The 1-RTT keys are here: 0-RTT ends. */
    void end() {
        keys.discard(EncryptionLevel.ZERO_RTT);
        if (!tls.earlyDataAccepted()) {
            rejected = true;
            for (SentPacket sp : recovery.loss().removeAll(PacketSpace.APPLICATION)) {
                fate.sendAgain(sp);
            }
        }
    }

    /** Whether this connection offered 0-RTT data and the server accepted it. */
    boolean accepted() {
        return tls.offersEarlyData() && tls.earlyDataAccepted();
    }

    /** Whether the server rejected the 0-RTT data this connection sent. */
    boolean rejected() {
        return rejected;
    }
}
