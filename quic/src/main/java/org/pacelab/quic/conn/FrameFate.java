package org.pacelab.quic.conn;

import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.ResetStreamFrame;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.SentPacket;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.stream.StreamDataSent;
import org.pacelab.quic.tls.TlsHandshake;

/**
 * What becomes of the frames of a sent packet (RFC 9000 §13.3). Acknowledged: stream and CRYPTO data are delivered,
 * the ranges an ACK frame carried need not be acknowledged again, an ACK_FREQUENCY request holds, a RESET_STREAM is
 * done. Lost (or its data probed again by a PTO): stream and CRYPTO data go back to their send buffers, a lost ACK puts
 * the current ACK on the next packet, control frames wait in {@link PendingFrames} to be sent with current values —
 * "lost → send again" is one call (quinn's {@code Retransmits}).
 */
final class FrameFate {
    private final ConnectionStreams streams;
    private final TlsHandshake tls;
    private final KeySchedule keys;
    private final PacketNumberSpace[] spaces;
    private final PendingFrames pending;
    private final AckFrequencySender ackFrequency;
    private final Recovery recovery;

    FrameFate(ConnectionStreams streams, TlsHandshake tls, KeySchedule keys, PacketNumberSpace[] spaces,
              PendingFrames pending, AckFrequencySender ackFrequency, Recovery recovery) {
        this.streams = streams;
        this.tls = tls;
        this.keys = keys;
        this.spaces = spaces;
        this.pending = pending;
        this.ackFrequency = ackFrequency;
        this.recovery = recovery;
    }

    /** The packet was acknowledged. */
    void onAcked(SentPacket p) {
        for (Frame f : p.frames) {
            switch (f) {
                case StreamDataSent s -> streams.onDataAcked(s);
                case CryptoDataSent c -> tls.outgoing(c.level()).onAcked(c.offset(), c.length(), false);
                case AckFrame a -> spaces[p.space.ordinal()].received.onAckAcknowledged(a.largestAcknowledged());
                case AckFrequencyFrame a -> {
                    // draft-ietf-quic-ack-frequency §7: the requested delay counts for the PTO once acknowledged
                    if (ackFrequency.isLatest(a)) {
                        recovery.setPeerMaxAckDelay(a.requestMaxAckDelay() * 1000);
                    }
                }
                case ResetStreamFrame r -> streams.onResetAcked(r);
                default -> { }
            }
        }
    }

    /** The packet was declared lost, or its data is probed again: what it carried is sent again. */
    void onLost(SentPacket p) {
        for (Frame f : p.frames) {
            switch (f) {
                case StreamDataSent s -> streams.onDataLost(s);
                case CryptoDataSent c -> requeueCrypto(c);
                case AckFrame ignored -> spaces[p.space.ordinal()].received.onAckLost();
                default -> pending.requeue(f);
            }
        }
    }

    /**
     * RFC 9002 §6.2.4: a probe SHOULD carry data. When the first probe of a PTO has taken the CRYPTO data waiting in a
     * handshake space, the second carries the unacknowledged CRYPTO data again instead of a bare PING: with one copy of
     * the ClientHello per PTO, a client behind 30 % loss lost it four PTOs in a row in about one of 120 handshakes
     * (the interop runner's handshakeloss against ngtcp2: one of its 50 connections idled out in two of three runs).
     * Client only: on the server the same rule made gtlsclient fail handshakeloss in two of three runs (not yet
     * understood), so a server's second probe stays a PING.
     */
    void requeueUnackedCrypto(PacketNumberSpace pns) {
        for (SentPacket sp : pns.unackedAckEliciting()) {
            for (Frame f : sp.frames) {
                if (f instanceof CryptoDataSent c) {
                    requeueCrypto(c);
                }
            }
        }
    }

    /** CRYPTO data goes again while its level's keys are there (a discarded level's data is not sent again). */
    private void requeueCrypto(CryptoDataSent c) {
        if (keys.hasTx(c.level())) {
            tls.outgoing(c.level()).onLost(c.offset(), c.length(), false);
        }
    }
}
