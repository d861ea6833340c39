package org.pacelab.quic.conn;

import java.nio.ByteBuffer;

import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.frame.HandshakeDoneFrame;
import org.pacelab.quic.frame.ImmediateAckFrame;
import org.pacelab.quic.frame.NewConnectionIdFrame;
import org.pacelab.quic.frame.PathChallengeFrame;
import org.pacelab.quic.frame.PingFrame;
import org.pacelab.quic.frame.RetireConnectionIdFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.recovery.AckTracker;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.stream.SendBuffer;
import org.pacelab.quic.tls.TlsHandshake;
import org.pacelab.quic.wire.VarInt;

/**
 * What goes into a packet, and in which order (quinn's {@code populate_packet}): the ACK first whenever there is
 * something new to acknowledge, CRYPTO data, then in 1-RTT packets PATH_CHALLENGE, HANDSHAKE_DONE, PATH_RESPONSE,
 * flow-control credit, connection IDs, stream signals, ACK_FREQUENCY and STREAM data; a PTO probe gets IMMEDIATE_ACK
 * and, when nothing else elicits an ACK, PING (RFC 9002 §6.2.4). Also answers whether anything is waiting to be sent.
 * The packet itself (header, packet number, sealing) is the connection's {@link PacketBuilder}.
 */
final class PacketPopulator {
    /** The levels packets are sent at, in the order they are coalesced into a datagram (RFC 9000 §12.2). */
    static final EncryptionLevel[] SENT_LEVELS = {EncryptionLevel.INITIAL, EncryptionLevel.HANDSHAKE, EncryptionLevel.ONE_RTT};
    /** The largest ACK_FREQUENCY frame: a 2-byte type and four variable-length integers. */
    private static final int MAX_ACK_FREQUENCY_FRAME = 2 + 4 * 8;

    private final boolean isClient;
    private final int ackDelayExponent;
    private final PacketNumberSpace[] spaces;
    private final KeySchedule keys;
    private final TlsHandshake tls;
    private final ConnectionStreams streams;
    private final PendingFrames pending;
    private final LocalConnectionIds localCids;
    private final AckFrequencySender ackFrequency;
    private final Recovery recovery;
    private final SentPacketFate fate;
    /** The PATH_CHALLENGE for the next 1-RTT packet, or null. */
    private PathChallengeFrame pathChallenge;

    PacketPopulator(boolean isClient, int ackDelayExponent, PacketNumberSpace[] spaces, KeySchedule keys, TlsHandshake tls,
                    ConnectionStreams streams, PendingFrames pending, LocalConnectionIds localCids,
                    AckFrequencySender ackFrequency, Recovery recovery, SentPacketFate fate) {
        this.isClient = isClient;
        this.ackDelayExponent = ackDelayExponent;
        this.spaces = spaces;
        this.keys = keys;
        this.tls = tls;
        this.streams = streams;
        this.pending = pending;
        this.localCids = localCids;
        this.ackFrequency = ackFrequency;
        this.recovery = recovery;
        this.fate = fate;
    }

    /** The next 1-RTT packet carries this challenge (RFC 9000 §8.2.1). */
    void challenge(PathChallengeFrame challenge) {
        this.pathChallenge = challenge;
    }

    /** Whether anything ack-eliciting waits: CRYPTO data at a level with keys, or application data once it may go. */
    boolean ackElicitingWaiting(boolean handshakeComplete) {
        for (EncryptionLevel level : EncryptionLevel.ALL) {
            if (level != EncryptionLevel.ZERO_RTT && keys.hasTx(level) && tls.outgoing(level).hasDataToSend(Long.MAX_VALUE)) {
                return true;
            }
        }
        return (handshakeComplete || keys.hasTx(EncryptionLevel.ZERO_RTT)) && appDataWaiting();
    }

    /** Whether an ACK is due now in a space we can send in. */
    boolean ackDue(long now) {
        for (EncryptionLevel level : SENT_LEVELS) {
            AckTracker t = spaces[level.space().ordinal()].received;
            if (keys.hasTx(level) && t.ackDue(now) && t.hasReceived()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a packet of {@code level} is worth starting: an ACK is due, a probe is owed, or something ack-eliciting
     * waits and {@code mayElicit} (the congestion window and the pacer allow it). A client's second probe in a handshake
     * space carries the unacknowledged CRYPTO data again ({@link SentPacketFate#requeueUnackedCrypto}).
     */
    boolean due(EncryptionLevel level, boolean mayElicit, boolean handshakeComplete, long now) {
        PacketNumberSpace pns = spaces[level.space().ordinal()];
        AckTracker tracker = pns.received;
        // 0-RTT packets carry no ACK frames (RFC 9000 §12.5); 1-RTT ones acknowledge the application space
        boolean ackDue = level != EncryptionLevel.ZERO_RTT && tracker.ackDue(now) && tracker.hasReceived();
        boolean probe = pns.probesToSend() > 0;
        boolean elicit = mayElicit || probe;
        SendBuffer crypto = tls.outgoing(level);
        if (isClient && probe && level.space() != PacketSpace.APPLICATION && !crypto.hasDataToSend(Long.MAX_VALUE)) {
            fate.requeueUnackedCrypto(pns);
        }
        boolean hasCrypto = crypto.hasDataToSend(Long.MAX_VALUE);
        boolean hasApp = (level == EncryptionLevel.ONE_RTT && handshakeComplete || level == EncryptionLevel.ZERO_RTT)
                && appDataWaiting();
        return ackDue || probe || elicit && (hasCrypto || hasApp);
    }

    /** Writes the frames of a packet of {@code b}'s level. */
    void populate(PacketBuilder b, boolean mayElicit, boolean handshakeComplete, int maxDatagramSize, long now) {
        EncryptionLevel level = b.level;
        PacketNumberSpace pns = spaces[level.space().ordinal()];
        AckTracker tracker = pns.received;
        boolean probe = pns.probesToSend() > 0;
        // ACK first, piggybacked whenever there is anything new to acknowledge
        if (level != EncryptionLevel.ZERO_RTT && tracker.hasNewAcks() && tracker.hasReceived()) {
            AckFrame ack = level == EncryptionLevel.ONE_RTT ? tracker.buildAck(now, ackDelayExponent) : tracker.buildHandshakeAck();
            if (FrameCodec.encodedLength(ack) <= b.remaining()) {
                b.write(ack);
                tracker.onAckSent();
            }
        }
        if (mayElicit || probe) {
            writeCrypto(level, tls.outgoing(level), b);
            if (level == EncryptionLevel.ONE_RTT && handshakeComplete) {
                writeApplicationFrames(b, maxDatagramSize, now);
            } else if (level == EncryptionLevel.ZERO_RTT) {
                streams.writeStreams(b); // the application's first requests, before the handshake completes
            }
        }
        if (probe && level == EncryptionLevel.ONE_RTT && ackFrequency.peerSupports() && b.remaining() >= 1) {
            // a probe is acknowledged at once, not after the peer's ACK delay (draft-ietf-quic-ack-frequency §5)
            b.write(ImmediateAckFrame.INSTANCE);
        }
        if (probe && !b.ackEliciting() && b.remaining() >= 1) {
            b.write(new PingFrame());
        }
        if (probe && b.ackEliciting()) {
            pns.onProbeSent();
        }
    }

    private boolean appDataWaiting() {
        return !pending.isEmpty() || streams.dataWaiting();
    }

    private static void writeCrypto(EncryptionLevel level, SendBuffer crypto, PacketBuilder b) {
        ByteBuffer payload = b.payload();
        while (payload.remaining() > 24) {
            // CRYPTO frame header: type, offset, length (at most 1 + 8 + 4 bytes)
            int max = payload.remaining() - 13;
            SendBuffer.Piece piece = crypto.next(max, Long.MAX_VALUE);
            if (piece == null || piece.length() == 0) {
                break;
            }
            payload.put((byte) FrameType.CRYPTO);
            VarInt.write(payload, piece.offset());
            VarInt.write(payload, piece.length());
            crypto.copy(piece.offset(), piece.length(), payload);
            b.record(new CryptoDataSent(level, piece.offset(), piece.length()));
        }
    }

    private void writeApplicationFrames(PacketBuilder b, int maxDatagramSize, long now) {
        if (pathChallenge != null && b.remaining() >= 9) {
            b.write(pathChallenge); // first, so the first packet on a new path carries it (RFC 9000 §9.3)
            pathChallenge = null;
        }
        if (pending.handshakeDone && !isClient && b.remaining() >= 1) {
            b.write(new HandshakeDoneFrame());
            pending.handshakeDone = false;
        }
        while (!pending.pathResponses.isEmpty() && FrameCodec.encodedLength(pending.pathResponses.peek()) <= b.remaining()) {
            b.write(pending.pathResponses.poll());
        }
        streams.writeCreditFrames(b, now, recovery.rtt().smoothedRtt());
        while (!pending.newConnectionIds.isEmpty()
                && FrameCodec.encodedLength(pending.newConnectionIds.peek()) <= b.remaining()) {
            NewConnectionIdFrame f = pending.newConnectionIds.poll();
            if (localCids.isActive(f.sequenceNumber())) {
                b.write(f);
            }
        }
        while (!pending.retireConnectionIds.isEmpty() && b.remaining() >= 9) {
            b.write(new RetireConnectionIdFrame(pending.retireConnectionIds.poll()));
        }
        streams.writeSignalFrames(b);
        writeAckFrequency(b, maxDatagramSize, now);
        boolean wroteData = streams.writeStreams(b);
        int slack = b.remaining();
        if (wroteData && ackFrequency.active() && streams.sendQueueEmpty() && slack >= 1) {
            // the last data before the sender runs dry: acknowledged at once, not after the ACK ratio or delay the
            // peer was asked for (draft-ietf-quic-ack-frequency §9.1)
            b.write(ImmediateAckFrame.INSTANCE);
            slack--;
        }
        if (wroteData && slack > 0 && slack <= ConnectionStreams.MAX_STREAM_HEADER) {
            // too little room for another STREAM frame (the header came out shorter than its bound, or a
            // retransmitted range was shorter than the room): pad, so that every full datagram has the same size —
            // UDP GSO cuts a buffer into equal segments (RFC 9000 §19.1 PADDING)
            b.pad(slack);
        }
    }

    /** An ACK_FREQUENCY frame when the request to the peer changes, or a lost one is due again. */
    private void writeAckFrequency(PacketBuilder b, int maxDatagramSize, long now) {
        if (pending.lostAckFrequency >= 0) {
            ackFrequency.onLost(pending.lostAckFrequency);
            pending.lostAckFrequency = -1;
        }
        if (b.remaining() < MAX_ACK_FREQUENCY_FRAME) {
            return;
        }
        AckFrequencyFrame f = ackFrequency.next(now, recovery.congestionController().congestionWindow(), maxDatagramSize,
                recovery.rtt(), recovery.congestionController().inSlowStart());
        if (f != null) {
            b.write(f);
            // §7: until it is acknowledged, the PTO allows for the larger of the old and the requested delay
            recovery.setPeerMaxAckDelay(Math.max(recovery.peerMaxAckDelay(), f.requestMaxAckDelay() * 1000));
        }
    }
}
