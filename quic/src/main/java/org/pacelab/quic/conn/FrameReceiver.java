package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.AckFrequencyFrame;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.DataBlockedFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.frame.FrameRules;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.frame.HandshakeDoneFrame;
import org.pacelab.quic.frame.ImmediateAckFrame;
import org.pacelab.quic.frame.MaxDataFrame;
import org.pacelab.quic.frame.MaxStreamDataFrame;
import org.pacelab.quic.frame.MaxStreamsFrame;
import org.pacelab.quic.frame.NewConnectionIdFrame;
import org.pacelab.quic.frame.NewTokenFrame;
import org.pacelab.quic.frame.PaddingFrame;
import org.pacelab.quic.frame.PathChallengeFrame;
import org.pacelab.quic.frame.PathResponseFrame;
import org.pacelab.quic.frame.PingFrame;
import org.pacelab.quic.frame.ResetStreamFrame;
import org.pacelab.quic.frame.RetireConnectionIdFrame;
import org.pacelab.quic.frame.StopSendingFrame;
import org.pacelab.quic.frame.StreamDataBlockedFrame;
import org.pacelab.quic.frame.StreamFrame;
import org.pacelab.quic.frame.StreamFrameHeader;
import org.pacelab.quic.frame.StreamsBlockedFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.AckTracker;

/**
 * The frames of one decrypted packet: decoded, checked against the packet type (RFC 9000 §12.4), logged, and handed
 * to what handles each kind — stream and flow-control frames to {@link ConnectionStreams}, path frames to
 * {@link PathValidator} and {@link PendingFrames}, ACK frequency frames to the application space's {@link AckTracker}
 * (draft-ietf-quic-ack-frequency §4–5), and ACK, CRYPTO, connection ID, CONNECTION_CLOSE and HANDSHAKE_DONE frames and a
 * completed path validation to the connection ({@link Handler}).
 */
final class FrameReceiver {
    /** Requested ACK delays are capped below 2^14 ms, the max_ack_delay limit of RFC 9000 §18.2. */
    private static final long MAX_REQUESTED_ACK_DELAY_MICROS = ((1L << 14) - 1) * 1000;

    /**
     * What one packet's frames were: ack-eliciting (RFC 9000 §13.2.1) and non-probing (§9.1). A value per packet,
     * returned, not a field: a packet's CRYPTO data may have the connection process packets that waited for keys, and
     * their frames, before this packet's own are all read. The four values are shared, so nothing is allocated.
     */
    record PacketFrames(boolean ackEliciting, boolean nonProbing) {
        private static final PacketFrames[] ALL = {new PacketFrames(false, false), new PacketFrames(false, true),
                new PacketFrames(true, false), new PacketFrames(true, true)};

        static PacketFrames of(boolean ackEliciting, boolean nonProbing) {
            return ALL[(ackEliciting ? 2 : 0) + (nonProbing ? 1 : 0)];
        }
    }

    /** The frames only the connection can act on. */
    interface Handler {
        void onAck(EncryptionLevel level, AckFrame ack, long now) throws QuicException;

        void onCrypto(EncryptionLevel level, CryptoFrame crypto, long now) throws QuicException;

        void onNewConnectionId(NewConnectionIdFrame frame) throws QuicException;

        void onRetireConnectionId(RetireConnectionIdFrame frame, byte[] packetDcid) throws QuicException;

        /** A PATH_RESPONSE completed the validation of the path the peer moved to (RFC 9000 §8.2.3). */
        void onPathValidated(long now);

        /**
         * A PATH_CHALLENGE (RFC 9000 §8.2.2): its PATH_RESPONSE goes on the path the challenge arrived on, which the
         * connection knows.
         */
        void onPathChallenge(byte[] data);

        /** A PATH_RESPONSE that answered none of the current path's challenges: perhaps another path's (§8.2.3). */
        void onOtherPathResponse(byte[] data, long now);

        void onConnectionClose(ConnectionCloseFrame frame, long now);

        /** HANDSHAKE_DONE (a client's; RFC 9001 §4.1.2). */
        void onHandshakeDone(long now);

        /** Whether the connection stopped processing (draining or closed): the packet's other frames are skipped. */
        boolean stopped();
    }

    private final boolean isClient;
    /** Our min_ack_delay in ns, negative when not announced (then ACK frequency frames are unknown frames). */
    private final long minAckDelay;
    private final QlogSink qlog;
    private final ConnectionStreams streams;
    private final PendingFrames pending;
    private final PathValidator path;
    private final AckTracker applicationAcks;
    private final Handler handler;

    FrameReceiver(boolean isClient, long minAckDelay, QlogSink qlog, ConnectionStreams streams, PendingFrames pending,
                  PathValidator path, AckTracker applicationAcks, Handler handler) {
        this.isClient = isClient;
        this.minAckDelay = minAckDelay;
        this.qlog = qlog;
        this.streams = streams;
        this.pending = pending;
        this.path = path;
        this.applicationAcks = applicationAcks;
        this.handler = handler;
    }

    /**
     * Processes the payload of packet {@code pn}; returns whether it was ack-eliciting and non-probing. May run again,
     * nested, for other packets before it returns (a CRYPTO frame's data gives keys packets waited for).
     *
     * @throws QuicException the connection error a frame causes
     */
    PacketFrames receive(ByteBuffer payload, PacketType type, EncryptionLevel level, long pn, byte[] dcid, long now)
            throws QuicException {
        if (!payload.hasRemaining()) {
            // RFC 9000 §12.4: a packet with no frames is a protocol violation
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, "packet without frames");
        }
        boolean ackEliciting = false;
        // whether the packet holds a frame other than a probing one (RFC 9000 §9.1)
        boolean nonProbing = false;
        List<Frame> logged = qlog.enabled() ? new ArrayList<>() : null;
        int length = payload.remaining();
        while (payload.hasRemaining()) {
            if (FrameCodec.atStreamFrame(payload)) {
                receiveStream(payload, type, logged);
                ackEliciting = true;
                nonProbing = true;
                if (handler.stopped()) {
                    break;
                }
                continue;
            }
            Frame f = FrameCodec.decode(payload);
            if (!FrameRules.allowedIn(f, type)) {
                throw new QuicException(TransportError.PROTOCOL_VIOLATION, f.type(),
                        FrameType.name(f.type()) + " frame not allowed in a " + type + " packet");
            }
            if (f.ackEliciting()) {
                ackEliciting = true;
            }
            // RFC 9000 §9.1: PATH_CHALLENGE, PATH_RESPONSE, NEW_CONNECTION_ID and PADDING are probing frames
            nonProbing |= !(f instanceof PathChallengeFrame || f instanceof PathResponseFrame
                    || f instanceof NewConnectionIdFrame || f instanceof PaddingFrame);
            if (logged != null) {
                logged.add(f);
            }
            onFrame(f, level, dcid, now);
            if (handler.stopped()) {
                break;
            }
        }
        if (logged != null) {
            qlog.packetReceived(now, type, pn, length, logged);
        }
        return PacketFrames.of(ackEliciting, nonProbing);
    }

    /**
     * A STREAM frame (ack-eliciting and non-probing, RFC 9000 §13.2.1, §9.1): its data goes from the packet straight
     * into the stream's buffer; only a qlog gets a copy.
     */
    private void receiveStream(ByteBuffer payload, PacketType type, List<Frame> logged) throws QuicException {
        if (!FrameRules.allowedIn(FrameType.STREAM, type)) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, FrameType.STREAM,
                    "STREAM frame not allowed in a " + type + " packet");
        }
        StreamFrameHeader h = FrameCodec.decodeStreamHeader(payload);
        int data = payload.position();
        if (logged != null) {
            byte[] copy = new byte[h.length()];
            payload.get(data, copy);
            logged.add(h.withData(copy));
        }
        streams.onStreamData(h, payload, data);
        payload.position(data + h.length());
    }

    private void onFrame(Frame f, EncryptionLevel level, byte[] dcid, long now) throws QuicException {
        switch (f) {
            case PaddingFrame ignored -> { }
            case PingFrame ignored -> { }
            case AckFrame ack -> handler.onAck(level, ack, now);
            case CryptoFrame c -> handler.onCrypto(level, c, now);
            case StreamFrame _, ResetStreamFrame _, StopSendingFrame _, MaxDataFrame _, MaxStreamDataFrame _, MaxStreamsFrame _,
                 DataBlockedFrame _, StreamDataBlockedFrame _, StreamsBlockedFrame _ -> streams.onFrame(f);
            case NewTokenFrame ignored -> {
                if (!isClient) {
                    throw new QuicException(TransportError.PROTOCOL_VIOLATION, f.type(), "a client sent NEW_TOKEN");
                }
            }
            case NewConnectionIdFrame n -> handler.onNewConnectionId(n);
            case RetireConnectionIdFrame r -> handler.onRetireConnectionId(r, dcid);
            case PathChallengeFrame c -> handler.onPathChallenge(c.data());
            case PathResponseFrame r -> {
                if (path.onResponse(r.data())) {
                    handler.onPathValidated(now);
                } else {
                    handler.onOtherPathResponse(r.data(), now);
                }
            }
            case ConnectionCloseFrame c -> handler.onConnectionClose(c, now);
            case AckFrequencyFrame a -> onAckFrequency(a);
            case ImmediateAckFrame ignored -> {
                requireAckFrequencySupport(f);
                applicationAcks.requestImmediateAck();
            }
            case HandshakeDoneFrame ignored -> {
                if (!isClient) {
                    throw new QuicException(TransportError.PROTOCOL_VIOLATION, f.type(), "a client sent HANDSHAKE_DONE");
                }
                handler.onHandshakeDone(now);
            }
            default -> throw new QuicException(TransportError.FRAME_ENCODING_ERROR, f.type(), "unexpected frame " + f);
        }
    }

    /** The peer's ACK_FREQUENCY (draft-ietf-quic-ack-frequency §4): acknowledge as it asks from now on. */
    private void onAckFrequency(AckFrequencyFrame a) throws QuicException {
        requireAckFrequencySupport(a);
        // a max_ack_delay of 2^14 ms or more is invalid as a transport parameter (RFC 9000 §18.2): requests cap there
        long delay = Math.min(a.requestMaxAckDelay(), MAX_REQUESTED_ACK_DELAY_MICROS) * 1000;
        if (delay < minAckDelay) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, a.type(), "ACK_FREQUENCY requests a max ack delay of "
                    + a.requestMaxAckDelay() + " us, below our min_ack_delay (draft-ietf-quic-ack-frequency §4)");
        }
        applicationAcks.onAckFrequency(a.sequenceNumber(), a.ackElicitingThreshold(), delay, a.reorderingThreshold());
    }

    /** ACK frequency frames from a peer we did not announce min_ack_delay to are frames we do not know. */
    private void requireAckFrequencySupport(Frame f) throws QuicException {
        if (minAckDelay < 0) {
            throw new QuicException(TransportError.FRAME_ENCODING_ERROR, f.type(), FrameType.name(f.type())
                    + " frame, but we did not announce min_ack_delay (draft-ietf-quic-ack-frequency §3)");
        }
    }
}
