package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.pacelab.quic.frame.PathChallengeFrame;
import org.pacelab.quic.frame.PathResponseFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.SentPacket;

/**
 * The send pipeline of one connection, from "what is due" to a datagram written into the runtime's buffer (quinn's
 * {@code poll_transmit}, ngtcp2's {@code ngtcp2_conn_write_vmsg}, quiche's {@code send_single}; the counterpart of
 * {@link PacketReceiver}): the room a datagram has (the datagram size, the anti-amplification limit, RFC 9000 §8.1, and
 * a new path's, §8.2), the congestion window and the pacer's release time with the intended send time it stamps on a
 * packet, packets of several levels coalesced in the order of RFC 9000 §12.2 and an Initial datagram padded to 1200
 * bytes (§14.1); each packet sealed and recorded (recovery, ECN marks, the key phase's count, qlog, the idle timer,
 * RFC 9000 §10.1; a client's Initial keys discarded with its first Handshake packet, RFC 9001 §4.9.1). Also the datagram
 * of a path probe (§8.2.1, §9) and the CONNECTION_CLOSE datagram of the closing state (§10.2.1). What goes into a
 * packet is {@link PacketPopulator}'s; how one is written, {@link PacketBuilder}'s.
 */
final class PacketSender {
    private static final byte[] EMPTY = new byte[0];
    /** Smallest useful room for a packet (header, a frame, the AEAD tag). */
    private static final int MIN_PACKET_ROOM = 64;
    /** The packets of a datagram, in the order RFC 9000 §12.2 coalesces them. */
    private static final EncryptionLevel[] SEND_ORDER = {EncryptionLevel.INITIAL, EncryptionLevel.ZERO_RTT,
            EncryptionLevel.HANDSHAKE, EncryptionLevel.ONE_RTT};

    private final boolean isClient;
    private final long pacingLookahead;
    private final VersionNegotiation versions;
    private final KeySchedule keys;
    private final PacketNumberSpace[] spaces;
    private final PeerConnectionIds peerCids;
    private final byte[] initialScid;
    private final HandshakeConnectionIds handshakeIds;
    private final HandshakeProgress handshake;
    private final PacketPopulator populator;
    private final Recovery recovery;
    private final EcnValidator ecn;
    private final AmplificationLimit amplification;
    /** Validation of the path the peer moved to (RFC 9000 §8.2, §9.3). */
    private final PathValidator path;
    private final ConnectionPaths paths;
    private final ConnectionClose close;
    private final InitialAckFirst ackFirst;
    private final IdleTimer idleTimer;
    private final QlogSink qlog;

    /** ECN codepoint of the datagram being built. */
    private int txEcn;
    private long packetsSent;
    // pacing bookkeeping (see send)
    private boolean idle = true;
    private long readySince;

    PacketSender(boolean isClient, long pacingLookahead, VersionNegotiation versions, KeySchedule keys,
                 PacketNumberSpace[] spaces, PeerConnectionIds peerCids, byte[] initialScid,
                 HandshakeConnectionIds handshakeIds, HandshakeProgress handshake, PacketPopulator populator,
                 Recovery recovery, EcnValidator ecn, AmplificationLimit amplification, PathValidator path,
                 ConnectionPaths paths, ConnectionClose close, InitialAckFirst ackFirst, IdleTimer idleTimer,
                 QlogSink qlog) {
        this.isClient = isClient;
        this.pacingLookahead = pacingLookahead;
        this.versions = versions;
        this.keys = keys;
        this.spaces = spaces;
        this.peerCids = peerCids;
        this.initialScid = initialScid;
        this.handshakeIds = handshakeIds;
        this.handshake = handshake;
        this.populator = populator;
        this.recovery = recovery;
        this.ecn = ecn;
        this.amplification = amplification;
        this.path = path;
        this.paths = paths;
        this.close = close;
        this.ackFirst = ackFirst;
        this.idleTimer = idleTimer;
        this.qlog = qlog;
    }

    /**
     * Something arrived or a timer fired at {@code now}: a connection that had nothing to send since may have now, and
     * its packets are not charged for the time before (the intended send time, see {@link #send}).
     */
    void onInput(long now) {
        if (idle) {
            idle = false;
            readySince = now;
        }
    }

    /**
     * Writes the next datagram of a connection in {@code state} into {@code out} (from its position, up to its limit,
     * at most {@code maxDatagramSize} bytes), coalescing packets of several encryption levels when useful. The intended
     * send time of its ack-eliciting packets is {@code max(release, readySince)}: the pacer's release time, or the
     * first moment the connection had something sendable after last having nothing, so cwnd- or application-limited
     * packets are not charged for time they were not ready.
     */
    SendResult send(ByteBuffer out, QuicConnection.State state, int maxDatagramSize, long now) {
        if (idle) {
            readySince = now;
        }
        PathProbe probe = paths.dueProbe();
        if (probe != null && state == QuicConnection.State.ESTABLISHED && keys.hasTx(EncryptionLevel.ONE_RTT)) {
            SendResult r = sendProbe(probe, out, maxDatagramSize, now);
            if (r != null) {
                return r;
            }
        }
        // every packet of this datagram carries the same ECN mark: the one the runtime puts on the datagram
        txEcn = ecn.codepoint();
        int start = out.position();
        int room = Math.min(out.remaining(), maxDatagramSize);
        // RFC 9000 §8.1: three times what the client sent, until its address is validated
        room = (int) Math.max(0, Math.min(room, amplification.allowance()));
        room = (int) Math.min(room, path.allowance());
        if (room < MIN_PACKET_ROOM) {
            return SendResult.NOTHING;
        }
        if (path.challengeDue() && state == QuicConnection.State.ESTABLISHED) {
            // RFC 9000 §8.2.1, §9.3: the first packet on the new path carries the challenge; like a PTO probe it goes at
            // once, whatever the congestion window and the pacer
            populator.challenge(new PathChallengeFrame(path.takeChallenge(now)));
            spaces[PacketSpace.APPLICATION.ordinal()].requestProbes(1);
        }
        if (state == QuicConnection.State.CLOSING) {
            return sendClose(out, room, now);
        }
        boolean handshakeComplete = handshake.complete();
        boolean probing = probesToSend();
        boolean cwndOpen = probing || recovery.congestionWindowRoom() > 0;
        boolean elicitingWaiting = populator.ackElicitingWaiting(handshakeComplete);
        long intended = now;
        boolean mayElicit = cwndOpen;
        long pacedUntil = 0;
        if (elicitingWaiting && cwndOpen && !probing && handshakeComplete) {
            long release = recovery.pacer().releaseTime(now, maxDatagramSize);
            if (release > now + pacingLookahead) {
                if (!populator.ackDue(now)) {
                    return SendResult.blocked(release);
                }
                // an ACK goes out now; the paced data waits
                mayElicit = false;
                pacedUntil = release;
            } else {
                intended = Math.max(release, readySince);
            }
        }
        List<PacketBuilder> built = new ArrayList<>(3);
        boolean needsPadding = false;
        for (EncryptionLevel level : SEND_ORDER) {
            int remaining = start + room - out.position();
            if (remaining < MIN_PACKET_ROOM || !keys.hasTx(level)) {
                continue;
            }
            PacketBuilder b = buildPacket(level, out, remaining, mayElicit, handshakeComplete, maxDatagramSize, now);
            if (b != null) {
                built.add(b);
                if (level == EncryptionLevel.INITIAL && (isClient || b.ackEliciting())) {
                    needsPadding = true;
                }
            }
        }
        if (built.isEmpty()) {
            out.position(start);
            if (pacedUntil != 0) {
                return SendResult.blocked(pacedUntil);
            }
            if (!elicitingWaiting || !cwndOpen) {
                idle = true;
            }
            if (!elicitingWaiting && recovery.congestionWindowRoom() >= maxDatagramSize) {
                recovery.setAppLimited(now, true);
            }
            return SendResult.NOTHING;
        }
        if (needsPadding) {
            PacketBuilder.padInitialDatagram(out, start, room, built);
        }
        boolean anyEliciting = false;
        for (PacketBuilder b : built) {
            int size = b.seal(out, keys.tx(b.level));
            record(b, size, intended, now);
            anyEliciting |= b.ackEliciting();
            if (b.level == EncryptionLevel.INITIAL && b.carriesAck()) {
                // the ACK of held CRYPTO data is in this datagram: TLS gets the data at the next timer turn (RFC 9000
                // §13.2.1); a send that returned earlier, or built no ACK, left it held
                ackFirst.onAckSent(now);
            }
        }
        int length = out.position() - start;
        amplification.onSent(length);
        path.onSent(length);
        if (anyEliciting) {
            recovery.setAppLimited(now, false);
        }
        return new SendResult(length, anyEliciting ? intended : now, 0, paths.current());
    }

    /** The ECN codepoint of the datagram the last {@link #send} call wrote (RFC 3168: 0b10 ECT(0), 0 Not-ECT). */
    int ecnCodepoint() {
        return txEcn;
    }

    /** Packets sent, CONNECTION_CLOSE packets not counted. */
    long packetsSent() {
        return packetsSent;
    }

    private boolean probesToSend() {
        for (PacketNumberSpace s : spaces) {
            if (s.probesToSend() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * A datagram of only PATH_CHALLENGE and PATH_RESPONSE frames on the probe's path, padded to 1200 bytes (§8.2.1,
     * §8.2.2) within what the path allows; null when none is due or fits. Not in flight: its loss says nothing of the
     * current path's congestion.
     */
    private SendResult sendProbe(PathProbe probe, ByteBuffer out, int maxDatagramSize, long now) {
        int start = out.position();
        int room = (int) Math.min(Math.min(out.remaining(), maxDatagramSize), probe.allowance());
        if (room < MIN_PACKET_ROOM) {
            return null;
        }
        PacketSpace space = PacketSpace.APPLICATION;
        PacketNumberSpace pns = spaces[space.ordinal()];
        PacketBuilder.Header header = new PacketBuilder.Header(versions.current(), probe.dcid(), initialScid, EMPTY,
                keys.keyPhase() == 1);
        PacketBuilder b = PacketBuilder.start(out, EncryptionLevel.ONE_RTT, pns.nextPacketNumber(), pns.largestAcked(), header,
                room, 4);
        if (probe.challengeDue()) {
            b.write(new PathChallengeFrame(probe.takeChallenge(now)));
        }
        for (byte[] r : probe.takeResponses()) {
            if (b.remaining() < 9) {
                break;
            }
            b.write(new PathResponseFrame(r));
        }
        b.finish(out);
        int padding = Math.min(ConnectionConfig.MIN_INITIAL_SIZE, room) - (out.position() - start);
        if (padding > 0) {
            b.padFinished(out, padding);
        }
        int size = b.seal(out, keys.tx(EncryptionLevel.ONE_RTT));
        pns.takePacketNumber();
        packetsSent++;
        SentPacket sp = new SentPacket(space, b.packetNumber, now, now, size, true, false, b.frames());
        recovery.onPacketSent(sp, now);
        keys.onPacketSent(b.packetNumber);
        if (qlog.enabled()) {
            qlog.packetSent(now, EncryptionLevel.ONE_RTT.packetType(), b.packetNumber, size, now, b.frames());
        }
        probe.onSent(size);
        txEcn = 0;
        return new SendResult(size, now, 0, probe.path());
    }

    /** Starts a packet of {@code level} at the buffer's position, with the space's next packet number. */
    private PacketBuilder startPacket(ByteBuffer out, EncryptionLevel level, int room, int expectedFrames) {
        PacketNumberSpace pns = spaces[level.space().ordinal()];
        PacketBuilder.Header header = new PacketBuilder.Header(versions.current(), peerCids.current(), initialScid,
                isClient ? handshakeIds.token() : EMPTY, keys.keyPhase() == 1);
        return PacketBuilder.start(out, level, pns.nextPacketNumber(), pns.largestAcked(), header, room, expectedFrames);
    }

    /** Builds one packet's header and plaintext payload at the buffer's position; null if nothing to send. */
    private PacketBuilder buildPacket(EncryptionLevel level, ByteBuffer out, int room, boolean mayElicit,
                                      boolean handshakeComplete, int maxDatagramSize, long now) {
        if (!populator.due(level, mayElicit, handshakeComplete, now)) {
            return null;
        }
        PacketBuilder b = startPacket(out, level, room, 4);
        populator.populate(b, mayElicit, handshakeComplete, maxDatagramSize, now);
        if (b.isEmpty()) {
            b.abandon(out);
            return null;
        }
        b.finish(out);
        return b;
    }

    private void record(PacketBuilder b, int size, long intended, long now) {
        EncryptionLevel level = b.level;
        PacketSpace space = level.space();
        spaces[space.ordinal()].takePacketNumber();
        packetsSent++;
        // RFC 9002 §A.1.1 time_sent: with a pacing look-ahead the runtime's qdisc (fq/etf, SO_TXTIME) holds a packet
        // released early until its intended time, so that is when it is sent — RTT samples, loss and PTO timers and
        // delivery rates count from there
        boolean eliciting = b.ackEliciting();
        long sentAt = eliciting ? Math.max(now, intended) : now;
        SentPacket sp = new SentPacket(space, b.packetNumber, sentAt, eliciting ? intended : now, size, eliciting,
                b.inFlight(), b.frames());
        recovery.onPacketSent(sp, now);
        ecn.onSent(spaces[space.ordinal()], b.packetNumber, txEcn != 0);
        if (level == EncryptionLevel.ONE_RTT) {
            keys.onPacketSent(b.packetNumber);
        }
        if (qlog.enabled()) {
            qlog.packetSent(now, level.packetType(), b.packetNumber, size, sp.intendedSendTime, b.frames());
        }
        handshake.onPacketSent(level, now);
        if (eliciting) {
            // RFC 9000 §10.1: sending an ack-eliciting packet restarts the idle timer if nothing was sent
            // since the last received packet
            idleTimer.onAckElicitingSent(now, recovery.rtt().ptoBase());
        }
    }

    /** The CONNECTION_CLOSE datagram (RFC 9000 §10.2): one close packet per level the peer may be able to read. */
    private SendResult sendClose(ByteBuffer out, int room, long now) {
        if (!close.takePacketDue()) {
            return SendResult.NOTHING;
        }
        int start = out.position();
        List<PacketBuilder> built = new ArrayList<>(3);
        for (EncryptionLevel level : PacketPopulator.SENT_LEVELS) {
            if (!keys.hasTx(level)) {
                continue;
            }
            if (level == EncryptionLevel.ONE_RTT && !handshake.complete() && keys.hasTx(EncryptionLevel.HANDSHAKE)) {
                continue;
            }
            int remaining = start + room - out.position();
            if (remaining < MIN_PACKET_ROOM) {
                break;
            }
            PacketBuilder b = startPacket(out, level, remaining, 1);
            b.write(close.frameFor(level, b.remaining()));
            b.finish(out);
            built.add(b);
        }
        if (built.isEmpty()) {
            out.position(start);
            return SendResult.NOTHING;
        }
        if (isClient && built.get(0).level == EncryptionLevel.INITIAL) {
            PacketBuilder.padInitialDatagram(out, start, room, built);
        }
        for (PacketBuilder b : built) {
            int size = b.seal(out, keys.tx(b.level));
            spaces[b.level.space().ordinal()].takePacketNumber();
            if (qlog.enabled()) {
                qlog.packetSent(now, b.level.packetType(), b.packetNumber, size, now, b.frames());
            }
        }
        int length = out.position() - start;
        amplification.onSent(length);
        path.onSent(length);
        close.onPacketSent(now + 3 * recovery.rtt().ptoBase());
        return new SendResult(length, now, 0, paths.current());
    }
}
