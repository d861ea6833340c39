package org.pacelab.quic.conn;

import java.util.List;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.ResetStreamFrame;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.recovery.LossDetector;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.SentPacket;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.stream.StreamDataSent;
import org.pacelab.quic.tls.TlsHandshake;

/**
 * What becomes of a sent packet once an ACK frame or the loss-detection timer decided (recovery decides, RFC 9002):
 * its ECN mark is checked against the peer's counts (RFC 9000 §13.4.2), a lost handshake packet asks for a probe, and
 * its frames meet their fate (RFC 9000 §13.3). Acknowledged: stream and CRYPTO data are delivered,
 * the ranges an ACK frame carried need not be acknowledged again, an ACK_FREQUENCY request holds, a RESET_STREAM is
 * done. Lost (or its data probed again by a PTO): stream and CRYPTO data go back to their send buffers, a lost ACK puts
 * the current ACK on the next packet, control frames wait in {@link PendingFrames} to be sent with current values —
 * "lost → send again" is one call (quinn's {@code Retransmits}).
 */
final class SentPacketFate {
    private final ConnectionStreams streams;
    private final TlsHandshake tls;
    private final KeySchedule keys;
    private final PacketNumberSpace[] spaces;
    private final PendingFrames pending;
    private final AckFrequencySender ackFrequency;
    private final Recovery recovery;
    private final EcnValidator ecn;
    private long packetsLost;

    SentPacketFate(ConnectionStreams streams, TlsHandshake tls, KeySchedule keys, PacketNumberSpace[] spaces,
                   PendingFrames pending, AckFrequencySender ackFrequency, Recovery recovery, EcnValidator ecn) {
        this.streams = streams;
        this.tls = tls;
        this.keys = keys;
        this.spaces = spaces;
        this.pending = pending;
        this.ackFrequency = ackFrequency;
        this.recovery = recovery;
        this.ecn = ecn;
    }

    /**
     * An ACK frame of {@code space} arrived (RFC 9002 §A.7): recovery says what it newly acknowledges and what is now
     * lost; then each meets its fate, and the application hears of streams with room again.
     *
     * @param ackDelayExponent the peer's ack_delay_exponent (RFC 9000 §18.2), for 1-RTT ACKs
     * @throws QuicException PROTOCOL_VIOLATION for an ACK of a packet never sent (RFC 9000 §13.1)
     */
    void onAckFrame(PacketSpace space, AckFrame ack, int ackDelayExponent, Recovery.HandshakeStatus handshake, long now)
            throws QuicException {
        if (ack.largestAcknowledged() >= spaces[space.ordinal()].nextPacketNumber()) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, ack.type(),
                    "ACK for packet " + ack.largestAcknowledged() + " which was never sent");
        }
        long ackDelay = space == PacketSpace.APPLICATION ? (ack.ackDelay() << ackDelayExponent) * 1000L : 0;
        LossDetector.AckResult r = recovery.onAck(space, ack.ranges(), ackDelay, handshake, now);
        for (SentPacket p : r.newlyAcked()) {
            onAcked(p);
        }
        if (!r.newlyAcked().isEmpty()) {
            // RFC 9000 §13.4.2.1: validate the peer's ECN counts against the marked packets this ACK newly acknowledges
            ecn.onAck(spaces[space.ordinal()], r.newlyAcked().stream().map(p -> p.packetNumber).toList(), ack.ecn());
        }
        onLost(r.lost());
        if (space == PacketSpace.APPLICATION && !r.newlyAcked().isEmpty()) {
            keys.onAcked(ack.largestAcknowledged());
        }
        streams.reportWritable();
    }

    /** Packets declared lost (by an ACK or the loss-detection timer). */
    void onLost(List<SentPacket> lost) {
        for (SentPacket p : lost) {
            packetsLost++;
            sendAgain(p);
            ecn.onLost(spaces[p.space.ordinal()], List.of(p.packetNumber));
            if (p.space != PacketSpace.APPLICATION && p.ackEliciting) {
                // RFC 9002 §7.3.2: on entering recovery a packet may be sent at once. Lost handshake data goes out as
                // such a probe: a full window of 1-RTT data the peer cannot acknowledge before the handshake
                // completes must not hold back the CRYPTO data it needs to complete it.
                spaces[p.space.ordinal()].requestProbes(1);
            }
        }
    }

    /** Packets declared lost so far. */
    long packetsLost() {
        return packetsLost;
    }

    private void onAcked(SentPacket p) {
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

    /**
     * What the packet carried is sent again: it was lost, its data is probed again by a PTO, it was an Initial sent
     * before a Retry or a 0-RTT packet the server dropped or rejected.
     */
    void sendAgain(SentPacket p) {
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
