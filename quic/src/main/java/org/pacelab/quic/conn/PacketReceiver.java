package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.MalformedPacketException;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.packet.Retry;
import org.pacelab.quic.packet.StatelessReset;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.AckTracker;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;

/**
 * The receive pipeline of one connection, from a datagram to the frames of each packet in it (quinn's
 * {@code handle_packet}, ngtcp2's {@code conn_recv_pkt}): the coalesced packets walked (RFC 9000 §12.2); each one
 * checked before it is opened — version, connection ID, stateless reset (§10.3.1), Version Negotiation and Retry
 * (client side, §6.2, §17.2.5), its keys (packets whose keys have not arrived wait in {@link PacketsAwaitingKeys},
 * RFC 9001 §4.1.4, §5.7); opened ({@link PacketOpener}), duplicates dropped, the peer's key update followed (RFC 9001
 * §6.2); its frames handed to {@link FrameReceiver}; its number and ECN codepoint recorded in the space's
 * {@link AckTracker} (RFC 9000 §13.2, §13.4.1); the idle timer restarted (§10.1) and the client's
 * {@link ResponseKeepAlive} told. What only the connection can do —
 * its state, closing, a Retry's effect, key updates, discarding keys — goes through {@link Handler}.
 */
final class PacketReceiver {

    /** What the receive pipeline asks of the connection. */
    interface Handler {
        QuicConnection.State state();

        boolean handshakeComplete();

        boolean handshakeConfirmed();

        /** Client: a Version Negotiation packet lists none of the versions we speak (RFC 9000 §6.2). */
        void onNoCommonVersion(int[] offered, long now);

        /** Client: a Retry that passed its integrity check and may be accepted (RFC 9000 §17.2.5). */
        void onRetry(ParsedPacket retry);

        /** The peer reset the connection (RFC 9000 §10.3.1). */
        void onStatelessReset(long now);

        /** The peer's 1-RTT packet in the next key phase opened: follow its key update (RFC 9001 §6.2). */
        void onPeerKeyUpdate(long now);

        /** Server: a Handshake packet was processed (RFC 9000 §8.1, RFC 9001 §4.9.1). */
        void onClientHandshakePacket(long now);

        /**
         * Server: an ack-eliciting Initial packet of the client was processed, all its frames (its ACKs of our Initial
         * packets among them): a repeated ClientHello or a PTO probe, which may show that the client lacks our Initial
         * data (RFC 9002 §6.2.3, §6.2.4).
         */
        void onClientInitialProbe(long now);

        /** A received packet broke a rule: close with its error code. */
        void onError(QuicException e, long now);

        /**
         * A packet would wait for its keys, but {@link PacketsAwaitingKeys} is full: keys the connection holds back on
         * purpose (a ClientHello held for its acknowledgement, {@link InitialAckFirst}) are to come now.
         */
        void onNoRoomForPacketAwaitingKeys(long now) throws QuicException;
    }

    private final boolean isClient;
    private final byte[] originalDcid;
    private final byte[] initialScid;
    private final VersionNegotiation versions;
    private final HandshakeConnectionIds handshakeIds;
    private final LocalConnectionIds localCids;
    private final PeerConnectionIds peerCids;
    private final KeySchedule keys;
    private final PacketNumberSpace[] spaces;
    private final FrameReceiver frames;
    private final AmplificationLimit amplification;
    private final PathValidator path;
    private final IdleTimer idleTimer;
    private final ResponseKeepAlive keepAlive;
    private final Recovery recovery;
    private final ConnectionClose close;
    private final QlogSink qlog;
    private final Handler handler;
    private final PacketsAwaitingKeys awaitingKeys = new PacketsAwaitingKeys();
    /** The caller's last datagram buffer and {@link #view}'s duplicate of it. */
    private ByteBuffer viewed;
    private ByteBuffer view;

    /** ECN codepoint of the datagram being processed (-1: the runtime cannot tell). */
    private int ecn = -1;
    /** Whether the datagram being received held a non-probing 1-RTT packet with the largest number so far (§9.3). */
    private boolean datagramMovesPath;
    private int lastDatagramSize;
    private long packetsReceived;
    private long packetsDropped;

    PacketReceiver(boolean isClient, byte[] originalDcid, byte[] initialScid, VersionNegotiation versions,
                   HandshakeConnectionIds handshakeIds, LocalConnectionIds localCids, PeerConnectionIds peerCids,
                   KeySchedule keys, PacketNumberSpace[] spaces, FrameReceiver frames, AmplificationLimit amplification,
                   PathValidator path, IdleTimer idleTimer, ResponseKeepAlive keepAlive, Recovery recovery,
                   ConnectionClose close, QlogSink qlog, Handler handler) {
        this.isClient = isClient;
        this.originalDcid = originalDcid;
        this.initialScid = initialScid;
        this.versions = versions;
        this.handshakeIds = handshakeIds;
        this.localCids = localCids;
        this.peerCids = peerCids;
        this.keys = keys;
        this.spaces = spaces;
        this.frames = frames;
        this.amplification = amplification;
        this.path = path;
        this.idleTimer = idleTimer;
        this.keepAlive = keepAlive;
        this.recovery = recovery;
        this.close = close;
        this.qlog = qlog;
        this.handler = handler;
    }

    /** Packets processed (opened and their frames handled). */
    long packetsReceived() { return packetsReceived; }

    /** Packets dropped: unparsable, unsupported, undecryptable, duplicated, for an unknown connection ID. */
    long packetsDropped() { return packetsDropped; }

    /** Whether the last datagram held a non-probing 1-RTT packet with the largest packet number so far (§9.3). */
    boolean datagramMovesPath() { return datagramMovesPath; }

    /** The last datagram's size, bytes. */
    int lastDatagramSize() { return lastDatagramSize; }

    /** Processes one datagram with the ECN codepoint {@code ecn} (-1 when unknown): every packet in it. */
    void receive(ByteBuffer datagram, int ecn, long now) {
        this.ecn = ecn;
        int total = datagram.remaining();
        if (!isClient) {
            amplification.onReceived(total);
        }
        datagramMovesPath = false;
        lastDatagramSize = total;
        path.onReceived(total);
        ByteBuffer dg = view(datagram);
        int offset = datagram.position();
        boolean first = true;
        try {
            while (offset < dg.limit() && handler.state() != QuicConnection.State.CLOSED) {
                ParsedPacket p;
                try {
                    p = PacketParser.parse(dg, offset, initialScid.length);
                } catch (MalformedPacketException e) {
                    drop(now, null, dg.limit() - offset, "header_parse_error");
                    break;
                }
                int end = p.packetEnd();
                receivePacket(dg, p, first, now);
                first = false;
                offset = end;
            }
        } catch (QuicException e) {
            handler.onError(e, now);
        }
    }

    /**
     * A view of the datagram's bytes from its position to its limit, which this receiver may move (packets are located
     * by absolute offsets in it, and a packet's frames read with its position and limit): a duplicate of the caller's
     * buffer, kept while the caller passes the same one (an event loop's receive buffer), since a new view per datagram
     * and another per packet were a fifth of a downloading client's allocation.
     */
    private ByteBuffer view(ByteBuffer datagram) {
        if (datagram != viewed) {
            viewed = datagram;
            view = datagram.duplicate();
        }
        return view.limit(datagram.limit()).position(datagram.position());
    }

    private void receivePacket(ByteBuffer dg, ParsedPacket p, boolean firstInDatagram, long now) throws QuicException {
        if (!p.supportedVersion()) {
            drop(now, null, p.packetEnd() - p.headerStart(), "unsupported_version");
            return;
        }
        PacketType type = p.type();
        if (type == PacketType.VERSION_NEGOTIATION) {
            onVersionNegotiation(p, now);
            return;
        }
        if (type == PacketType.RETRY) {
            onRetry(dg, p, now);
            return;
        }
        if (type == PacketType.ZERO_RTT && isClient) {
            // RFC 9000 §17.2.3: only clients send 0-RTT packets
            drop(now, type, p.packetEnd() - p.headerStart(), "unexpected_0rtt");
            return;
        }
        QuicConnection.State state = handler.state();
        if (state == QuicConnection.State.DRAINING) {
            return;
        }
        if (type.isLongHeader() && p.version() != versions.current()
                && !versions.accept(type, p.version(), handshakeIds.firstServerPacketSeen())) {
            drop(now, type, p.packetEnd() - p.headerStart(), "version_mismatch");
            return;
        }
        if (isClient && !Arrays.equals(p.dcid(), initialScid) && !isLocalCid(p.dcid())) {
            // RFC 9000 §10.3.1: a first packet that cannot be associated with the connection may be a reset
            if (firstInDatagram && dg.remaining() >= StatelessReset.MIN_LENGTH) {
                byte[] tail = new byte[16];
                dg.get(dg.limit() - 16, tail);
                if (peerCids.isStatelessResetToken(tail)) {
                    handler.onStatelessReset(now);
                    return;
                }
            }
            drop(now, type, p.packetEnd() - p.headerStart(), "unknown_connection_id");
            return;
        }
        EncryptionLevel level = type.level();
        if (!canProcess(level) && mayAwaitKeys(level) && !awaitingKeys.hasRoom()) {
            // RFC 9001 §4.1.4 bounds the packets kept; rather than drop one, keys held back on purpose come now
            handler.onNoRoomForPacketAwaitingKeys(now);
        }
        if (!canProcess(level)) {
            if (mayAwaitKeys(level) && awaitingKeys.hasRoom()) {
                awaitingKeys.add(dg, p.headerStart(), p.packetEnd());
            } else {
                drop(now, type, p.packetEnd() - p.headerStart(), "key_unavailable");
            }
            return;
        }
        if (state == QuicConnection.State.CLOSING) {
            close.onPacketWhileClosing();
            return;
        }
        decryptAndProcess(dg, p, level, now);
    }

    private void decryptAndProcess(ByteBuffer dg, ParsedPacket p, EncryptionLevel level, long now) throws QuicException {
        PacketType type = p.type();
        int length = p.packetEnd() - p.headerStart();
        PacketSpace space = level.space();
        AckTracker tracker = spaces[space.ordinal()].received;
        PacketOpener.Opened opened;
        switch (PacketOpener.open(dg, p, level, keys, tracker.largest())) {
            case PacketOpener.Opened o -> opened = o;
            case PacketOpener.Failed f -> {
                if (f.resetTail() != null && peerCids.isStatelessResetToken(f.resetTail())) {
                    handler.onStatelessReset(now);
                } else {
                    drop(now, type, length, f.trigger());
                }
                return;
            }
        }
        long pn = opened.packetNumber();
        if (tracker.isDuplicate(pn)) {
            drop(now, type, length, "duplicate");
            return;
        }
        if (type == PacketType.ONE_RTT) {
            if (opened.nextGeneration()) {
                // RFC 9001 §6.2: the peer initiated a key update (or confirmed ours); follow it
                if (!handler.handshakeConfirmed() && isClient) {
                    throw new QuicException(TransportError.KEY_UPDATE_ERROR, "key update before the handshake was confirmed");
                }
                handler.onPeerKeyUpdate(now);
            }
            keys.onReceived(opened.keyPhase(), pn);
            if (!isClient && keys.hasRx(EncryptionLevel.ZERO_RTT)) {
                // RFC 9001 §4.9.3: a client that sends 1-RTT packets sends no more 0-RTT ones
                keys.discard(EncryptionLevel.ZERO_RTT);
            }
        }
        if (isClient && !handshakeIds.firstServerPacketSeen() && (type == PacketType.INITIAL || type == PacketType.HANDSHAKE)) {
            // RFC 9000 §7.2: the client switches to the server's chosen connection ID
            handshakeIds.onFirstServerPacket(p.scid());
            peerCids.replaceInitial(p.scid());
        }
        packetsReceived++;
        long largestBefore = tracker.hasReceived() ? tracker.largest() : -1;
        // the frames are read from the payload with the datagram's position and limit, put back after them (a frame
        // that breaks a rule ends the datagram, and the next one sets the view again)
        int datagramStart = dg.position();
        int datagramEnd = dg.limit();
        dg.limit(opened.payloadOffset() + opened.payloadLength()).position(opened.payloadOffset());
        FrameReceiver.PacketFrames received = frames.receive(dg, type, level, pn, p.dcid(), now);
        boolean ackEliciting = received.ackEliciting();
        dg.limit(datagramEnd).position(datagramStart);
        tracker.onPacketReceived(pn, ackEliciting, now);
        // this packet's own frames: packets processed while they were read (keys its CRYPTO data gave) do not count
        if (type == PacketType.ONE_RTT && pn > largestBefore && received.nonProbing()) {
            datagramMovesPath = true;
        }
        if (ecn >= 0) {
            // RFC 9000 §13.4.1: count the codepoint of every packet processed, per packet number space
            tracker.countEcn(ecn);
        }
        if (!isClient && level == EncryptionLevel.INITIAL && ackEliciting) {
            handler.onClientInitialProbe(now);
        }
        if (!isClient && level == EncryptionLevel.HANDSHAKE) {
            handler.onClientHandshakePacket(now);
        }
        idleTimer.onPacketReceived(now, recovery.rtt().ptoBase());
        keepAlive.onPacketReceived(now, ackEliciting);
    }

    /**
     * New keys may have arrived (CRYPTO data was processed): the packets waiting for them are processed, oldest first;
     * those whose keys are still missing wait on, a 0-RTT packet only until the handshake completes.
     */
    void processPacketsAwaitingKeys(long now) throws QuicException {
        if (awaitingKeys.isEmpty()) {
            return;
        }
        int n = awaitingKeys.size();
        for (int i = 0; i < n; i++) {
            byte[] packet = awaitingKeys.poll();
            if (packet == null) {
                // a packet processed above carried CRYPTO data that drained the rest (this method re-entered)
                break;
            }
            ByteBuffer b = ByteBuffer.wrap(packet);
            ParsedPacket p;
            try {
                p = PacketParser.parse(b, 0, initialScid.length);
            } catch (MalformedPacketException e) {
                continue;
            }
            EncryptionLevel level = p.type().level();
            if (canProcess(level)) {
                decryptAndProcess(b, p, level, now);
            } else if (level != EncryptionLevel.ZERO_RTT || !handler.handshakeComplete()) {
                awaitingKeys.putBack(packet);
            }
        }
    }

    /**
     * Whether a packet of {@code level} whose keys are missing may wait for them: Handshake and 1-RTT packets reordered
     * ahead of the packets that give their keys, 0-RTT packets that overtake the Initial whose ClientHello gives theirs
     * (RFC 9001 §5.7) until the handshake completes; none of a space whose keys were discarded.
     */
    private boolean mayAwaitKeys(EncryptionLevel level) {
        return (level == EncryptionLevel.HANDSHAKE || level == EncryptionLevel.ONE_RTT
                || level == EncryptionLevel.ZERO_RTT && !handler.handshakeComplete())
                && !spaces[level.space().ordinal()].isDiscarded();
    }

    /**
     * Whether packets of a level can be processed now: its keys are there, and a server has completed the
     * handshake before it processes 1-RTT packets (RFC 9001 §5.7); until then they wait with the packets
     * whose keys are missing.
     */
    private boolean canProcess(EncryptionLevel level) {
        return keys.hasRx(level) && (isClient || handler.handshakeComplete() || level != EncryptionLevel.ONE_RTT);
    }

    private void onVersionNegotiation(ParsedPacket p, long now) {
        // RFC 9000 §6.2: a client abandons the attempt when no version it supports is offered
        if (!isClient || handshakeIds.firstServerPacketSeen() || packetsReceived > 0) {
            return;
        }
        if (versions.listsCurrent(p.versions())) {
            return;
        }
        handler.onNoCommonVersion(p.versions(), now);
    }

    private void onRetry(ByteBuffer dg, ParsedPacket p, long now) {
        if (!handshakeIds.mayAcceptRetry()) {
            return;
        }
        if (!Retry.verify(dg, p, originalDcid) || p.token().length == 0) {
            drop(now, PacketType.RETRY, p.packetEnd() - p.headerStart(), "retry_integrity");
            return;
        }
        handler.onRetry(p);
    }

    private boolean isLocalCid(byte[] cid) {
        for (byte[] c : localCids.all()) {
            if (Arrays.equals(c, cid)) {
                return true;
            }
        }
        return false;
    }

    private void drop(long now, PacketType type, int length, String trigger) {
        packetsDropped++;
        if (qlog.enabled()) {
            qlog.packetDropped(now, type, length, trigger);
        }
    }
}
