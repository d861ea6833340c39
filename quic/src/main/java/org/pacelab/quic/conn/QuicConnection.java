package org.pacelab.quic.conn;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.TransportParameters;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.crypto.AeadException;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.crypto.HeaderProtection;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.crypto.VersionProtection;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.DataBlockedFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.FrameCodec;
import org.pacelab.quic.frame.FrameRules;
import org.pacelab.quic.frame.FrameType;
import org.pacelab.quic.frame.HandshakeDoneFrame;
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
import org.pacelab.quic.frame.StreamsBlockedFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.MalformedPacketException;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.PacketWriter;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.packet.Retry;
import org.pacelab.quic.packet.StatelessReset;
import org.pacelab.quic.cc.CongestionControllers;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.AckTracker;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.recovery.LossDetector;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.RttEstimator;
import org.pacelab.quic.recovery.SentPacket;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.stream.QuicStream;
import org.pacelab.quic.stream.SendBuffer;
import org.pacelab.quic.stream.StreamDataSent;
import org.pacelab.quic.stream.StreamManager;
import org.pacelab.quic.tls.SessionTicket;
import org.pacelab.quic.tls.TlsHandshake;

/**
 * One QUIC v1 connection as a sans-I/O state machine (RFC 9000, 9001, 9002). The runtime hands it received
 * datagrams ({@link #receive}), asks it for datagrams to send ({@link #send}), and calls {@link #onTimeout}
 * at {@link #nextTimeout()}. It never touches a socket, a thread or a clock: every call carries {@code now}
 * in nanoseconds, and randomness comes from the injected generator.
 */
public final class QuicConnection implements StreamTransport {

    /** Connection states (RFC 9000 §10). */
    public enum State { HANDSHAKE, ESTABLISHED, CLOSING, DRAINING, CLOSED }

    private static final byte[] EMPTY = new byte[0];
    /** Smallest useful room for a packet (header, a frame, the AEAD tag). */
    private static final int MIN_PACKET_ROOM = 64;
    /** Room below which writeStreams starts no further STREAM frame (a header is at most 19 bytes, plus some data). */
    private static final int MAX_STREAM_HEADER = 24;
    /** Packets that arrive before their keys are kept this many at most (RFC 9001 §4.1.4). */
    private static final int MAX_BUFFERED_PACKETS = 16;

    private final boolean isClient;
    private final ConnectionConfig config;
    /** The version packets are sent in (the Negotiated Version once negotiation is over, RFC 9368 §2.1). */
    private int version;
    /** The version the client's first Initial used. */
    private final int originalVersion;
    private final StatelessResetTokens resetTokens;
    private final ApplicationHandler app;
    private final RandomGenerator random;
    private final QlogSink qlog;

    private final KeySchedule keys;
    private final TlsHandshake tls;
    private final LocalConnectionIds localCids;
    private final PeerConnectionIds peerCids;
    private final byte[] originalDcid;
    private final byte[] initialScid;
    private final byte[] retryScid;
    private byte[] token = EMPTY;
    private boolean retryReceived;
    private boolean firstServerPacketSeen;
    private byte[] peerInitialScid;

    private final AckTracker[] acks = new AckTracker[3];
    private final long[] nextPn = new long[3];
    private final Recovery recovery;
    private final EcnValidator ecn;
    /** ECN codepoint of the datagram being processed (-1: the runtime cannot tell), and of the one being built. */
    private int rxEcn = -1;
    private int txEcn;
    private final StreamManager streams;
    private final ConnectionFlowControl flow;

    private final ArrayDeque<Frame> controlFrames = new ArrayDeque<>();
    private final LinkedHashSet<Long> windowUpdates = new LinkedHashSet<>();
    private final int[] probes = new int[3];
    private boolean handshakeDonePending;

    private TransportParameters peerParams;
    private long peerMaxAckDelay = 25_000_000L;
    private int peerAckDelayExponent = 3;
    private long peerMaxUdpPayload = 65527;
    private long peerIdleTimeout;

    private State state = State.HANDSHAKE;
    private boolean handshakeComplete;
    private boolean handshakeConfirmed;
    private boolean connectedReported;
    private boolean addressValidated;
    private boolean peerValidatedOurAddress;
    private long bytesReceived;
    private long bytesSent;
    private long idleDeadline = Long.MAX_VALUE;
    private long closeDeadline = Long.MAX_VALUE;
    private ConnectionCloseFrame closeFrame;
    private boolean closePacketPending;
    private int packetsSinceClose;
    private boolean closedReported;
    private long packetsSentInKeyPhase;

    private final ArrayDeque<byte[]> undecryptable = new ArrayDeque<>();
    private final LinkedHashSet<Long> readable = new LinkedHashSet<>();
    private final List<Runnable> appEvents = new ArrayList<>();

    // pacing bookkeeping (see send)
    private boolean idle = true;
    private long readySince;
    private long lastNow;

    // counters
    private long packetsSent;
    private long packetsReceived;
    private long packetsDropped;
    private long packetsLost;

    private QuicConnection(boolean isClient, ConnectionConfig config, ApplicationHandler app, RandomGenerator random,
                           StatelessResetTokens resetTokens, LocalConnectionIds.Listener cidListener,
                           byte[] localCid, byte[] peerCid, byte[] originalDcid, byte[] retryScid, int version, long now) {
        this.isClient = isClient;
        this.config = config;
        this.version = version;
        this.originalVersion = version;
        this.resetTokens = resetTokens;
        this.app = app;
        this.random = random;
        this.originalDcid = originalDcid.clone();
        this.initialScid = localCid.clone();
        this.retryScid = retryScid;
        this.qlog = config.qlog().apply(originalDcid);
        this.keys = new KeySchedule(isClient);
        this.localCids = new LocalConnectionIds(localCid, random, resetTokens, cidListener);
        this.peerCids = new PeerConnectionIds(peerCid, config.activeConnectionIdLimit());
        acks[0] = new AckTracker(true, 1);
        acks[1] = new AckTracker(true, 1);
        acks[2] = new AckTracker(false, config.ackElicitingThreshold());
        int mds = maxDatagramSize();
        RttEstimator rtt = new RttEstimator(config.initialRtt());
        this.recovery = new Recovery(rtt, CongestionControllers.create(config.congestion(), mds, random), qlog);
        this.ecn = new EcnValidator(config.ecn());
        this.streams = new StreamManager(isClient, config.streams());
        this.flow = new ConnectionFlowControl(config.streams().initialMaxData(), config.streams().maxConnectionWindow());
        TransportParameters local = localTransportParameters(resetTokens);
        TlsHandshake.Listener tlsListener = new TlsListener();
        this.tls = isClient ? TlsHandshake.client(config.tls(), local.encode(), tlsListener, config.keyLog())
                : TlsHandshake.server(config.tls(), local.encode(), tlsListener, config.keyLog());
        // the client derives Initial keys from the DCID it chose, the server from the DCID the client used
        keys.switchVersion(VersionProtection.of(version));
        keys.installInitial(isClient ? originalDcid : (retryScid != null ? retryScid : originalDcid));
        this.idleDeadline = now + (config.idleTimeout() > 0 ? config.idleTimeout() : Long.MAX_VALUE / 4);
        if (qlog.enabled()) {
            qlog.connectionStarted(now, "", "", localCid, peerCid);
            qlog.parametersSet(now, true, parameterMap(local));
        }
    }

    /**
     * Creates a client connection and queues its first flight.
     *
     * @param resetTokens derives stateless reset tokens for the IDs this endpoint issues
     * @param cidListener told about connection IDs issued and retired (for routing)
     */
    public static QuicConnection client(ConnectionConfig config, ApplicationHandler app, RandomGenerator random,
                                        StatelessResetTokens resetTokens, LocalConnectionIds.Listener cidListener,
                                        long now) throws QuicException {
        byte[] scid = new byte[config.localCidLength()];
        random.nextBytes(scid);
        // RFC 9000 §7.2: an unpredictable DCID of at least 8 bytes
        byte[] dcid = new byte[Math.max(8, config.localCidLength())];
        random.nextBytes(dcid);
        QuicConnection c = new QuicConnection(true, config, app, random, resetTokens, cidListener, scid, dcid, dcid, null,
                config.versions().get(0), now);
        c.tls.start();
        c.idle = false;
        c.readySince = now;
        return c;
    }

    /**
     * Creates a server connection for a client's first Initial packet of {@code version} (the client's Original
     * Version, RFC 9368 §2.1).
     *
     * @param localCid     the connection ID the server chose for itself
     * @param clientScid   the Source Connection ID of the client's Initial
     * @param originalDcid the Destination Connection ID of the client's very first Initial (before any Retry)
     * @param retryScid    the Source Connection ID of the Retry the server sent, or null without Retry
     */
    public static QuicConnection server(ConnectionConfig config, ApplicationHandler app, RandomGenerator random,
                                        StatelessResetTokens resetTokens, LocalConnectionIds.Listener cidListener,
                                        byte[] localCid, byte[] clientScid, byte[] originalDcid, byte[] retryScid,
                                        int version, long now) {
        QuicConnection c = new QuicConnection(false, config, app, random, resetTokens, cidListener, localCid, clientScid,
                originalDcid, retryScid, version, now);
        c.peerInitialScid = clientScid.clone();
        // RFC 9000 §8.1: a token from our Retry validates the client's address
        c.addressValidated = retryScid != null;
        return c;
    }

    private TransportParameters localTransportParameters(StatelessResetTokens resetTokens) {
        var limits = config.streams();
        var b = TransportParameters.builder()
                .maxIdleTimeout(config.idleTimeout() / 1_000_000L)
                .maxUdpPayloadSize(config.maxUdpPayloadSize())
                .initialMaxData(limits.initialMaxData())
                .initialMaxStreamDataBidiLocal(limits.initialMaxStreamData())
                .initialMaxStreamDataBidiRemote(limits.initialMaxStreamData())
                .initialMaxStreamDataUni(limits.initialMaxStreamData())
                .initialMaxStreamsBidi(limits.maxStreamsBidi())
                .initialMaxStreamsUni(limits.maxStreamsUni())
                .ackDelayExponent(config.ackDelayExponent())
                .maxAckDelay(config.maxAckDelay() / 1_000_000L)
                .activeConnectionIdLimit(config.activeConnectionIdLimit())
                .disableActiveMigration(true)
                .initialSourceConnectionId(initialScid)
                // RFC 9368 §3: the version in use and, in preference order, the versions spoken
                .versionInformation(new TransportParameters.VersionInformation(version,
                        config.versions().stream().mapToInt(Integer::intValue).toArray()));
        if (!isClient) {
            resetTokenAnnounced = resetTokens.tokenFor(initialScid);
            b.originalDestinationConnectionId(originalDcid)
                    .statelessResetToken(resetTokenAnnounced);
            if (retryScid != null) {
                b.retrySourceConnectionId(retryScid);
            }
        }
        return b.build();
    }

    // =============================================================================================
    // Receiving
    // =============================================================================================

    /** Processes one received UDP datagram (possibly several coalesced packets, RFC 9000 §12.2). */
    public void receive(ByteBuffer datagram, long now) {
        receive(datagram, -1, now);
    }

    /**
     * Processes one received UDP datagram that arrived with the ECN codepoint {@code ecn} (0..3 from the IP header; -1
     * when the runtime cannot read it: then nothing is counted and our ACK frames carry no ECN counts).
     */
    public void receive(ByteBuffer datagram, int ecn, long now) {
        rxEcn = ecn;
        if (state == State.CLOSED) {
            return;
        }
        markInput(now);
        int total = datagram.remaining();
        if (!isClient) {
            bytesReceived += total;
        }
        // keep the last 16 bytes to recognise a stateless reset after a failed decryption (RFC 9000 §10.3.1)
        ByteBuffer dg = datagram.slice();
        int offset = 0;
        boolean first = true;
        try {
            while (offset < dg.limit() && state != State.CLOSED) {
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
            closeWithError(e, now);
        }
        dispatchAppEvents();
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
        if (type == PacketType.ZERO_RTT) {
            drop(now, type, p.packetEnd() - p.headerStart(), "unsupported_0rtt");
            return;
        }
        if (state == State.DRAINING) {
            return;
        }
        if (type.isLongHeader() && p.version() != version && !acceptVersion(p)) {
            drop(now, type, p.packetEnd() - p.headerStart(), "version_mismatch");
            return;
        }
        if (isClient && !Arrays.equals(p.dcid(), initialScid) && !isLocalCid(p.dcid())) {
            // RFC 9000 §10.3.1: a first packet that cannot be associated with the connection may be a reset
            if (firstInDatagram && dg.limit() >= StatelessReset.MIN_LENGTH) {
                byte[] tail = new byte[16];
                dg.get(dg.limit() - 16, tail);
                if (peerCids.isStatelessResetToken(tail)) {
                    onStatelessReset(now);
                    return;
                }
            }
            drop(now, type, p.packetEnd() - p.headerStart(), "unknown_connection_id");
            return;
        }
        EncryptionLevel level = type.level();
        if (!keys.hasRx(level)) {
            if ((level == EncryptionLevel.HANDSHAKE || level == EncryptionLevel.ONE_RTT)
                    && undecryptable.size() < MAX_BUFFERED_PACKETS && !spaceDiscarded(level.space())) {
                byte[] copy = new byte[p.packetEnd() - p.headerStart()];
                dg.get(p.headerStart(), copy);
                undecryptable.add(copy);
            } else {
                drop(now, type, p.packetEnd() - p.headerStart(), "key_unavailable");
            }
            return;
        }
        if (state == State.CLOSING) {
            // RFC 9000 §10.2.1: answer packets with CONNECTION_CLOSE, at a decreasing rate
            packetsSinceClose++;
            if (Integer.bitCount(packetsSinceClose) == 1) {
                closePacketPending = true;
            }
            return;
        }
        decryptAndProcess(dg, p, level, now);
    }

    private void decryptAndProcess(ByteBuffer dg, ParsedPacket p, EncryptionLevel level, long now) throws QuicException {
        PacketType type = p.type();
        int headerStart = p.headerStart();
        int pnOffset = p.pnOffset();
        int packetEnd = p.packetEnd();
        byte[] resetTail = null;
        if (type == PacketType.ONE_RTT && packetEnd - headerStart >= StatelessReset.MIN_LENGTH) {
            resetTail = new byte[16];
            dg.get(packetEnd - 16, resetTail);
        }
        PacketKeys hpKeys = level == EncryptionLevel.INITIAL ? keys.initialRx(p.version()) : keys.rx(level);
        if (hpKeys == null) {
            drop(now, type, p.packetEnd() - p.headerStart(), "key_unavailable");
            return;
        }
        int pnLen = HeaderProtection.remove(dg, headerStart, pnOffset, packetEnd, hpKeys);
        if (pnLen < 0) {
            drop(now, type, packetEnd - headerStart, "header_protection_sample_missing");
            return;
        }
        PacketSpace space = level.space();
        long truncated = PacketNumbers.read(dg, pnOffset, pnLen);
        long pn = PacketNumbers.decode(acks[space.ordinal()].largest(), truncated, pnLen);
        int firstByte = dg.get(headerStart) & 0xff;
        PacketKeys rxKeys = hpKeys;
        boolean nextGeneration = false;
        if (type == PacketType.ONE_RTT) {
            int phase = (firstByte >> 2) & 1;
            rxKeys = keys.rxFor(phase, pn);
            nextGeneration = keys.isNextGeneration(phase, pn);
            if (rxKeys == null) {
                drop(now, type, packetEnd - headerStart, "key_unavailable");
                return;
            }
        }
        int payloadOffset = pnOffset + pnLen;
        int plainLength;
        try {
            plainLength = rxKeys.open(dg, headerStart, payloadOffset - headerStart, payloadOffset, packetEnd - payloadOffset, pn);
        } catch (AeadException e) {
            if (resetTail != null && peerCids.isStatelessResetToken(resetTail)) {
                onStatelessReset(now);
                return;
            }
            drop(now, type, packetEnd - headerStart, "payload_decrypt_error");
            return;
        }
        // RFC 9000 §17.2, §17.3.1: reserved bits must be zero after header protection is removed
        int reservedMask = type == PacketType.ONE_RTT ? 0x18 : 0x0c;
        if ((firstByte & reservedMask) != 0) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, "reserved header bits set in a " + type + " packet");
        }
        AckTracker tracker = acks[space.ordinal()];
        if (tracker.isDuplicate(pn)) {
            drop(now, type, packetEnd - headerStart, "duplicate");
            return;
        }
        if (type == PacketType.ONE_RTT) {
            if (nextGeneration) {
                // RFC 9001 §6.2: the peer initiated a key update (or confirmed ours); follow it
                if (!handshakeConfirmed && isClient) {
                    throw new QuicException(TransportError.KEY_UPDATE_ERROR, "key update before the handshake was confirmed");
                }
                keys.update(now + 3 * recovery.rtt().ptoBase());
                packetsSentInKeyPhase = 0;
                if (qlog.enabled()) {
                    qlog.keyUpdated(now, "1RTT", keys.generation(), "remote_update");
                }
            }
            keys.onReceivedInPhase(pn);
        }
        if (isClient && !firstServerPacketSeen && (type == PacketType.INITIAL || type == PacketType.HANDSHAKE)) {
            // RFC 9000 §7.2: the client switches to the server's chosen connection ID
            firstServerPacketSeen = true;
            peerInitialScid = p.scid().clone();
            peerCids.replaceInitial(p.scid());
        }
        packetsReceived++;
        ByteBuffer payload = dg.duplicate();
        payload.limit(payloadOffset + plainLength).position(payloadOffset);
        boolean ackEliciting = processFrames(payload, type, level, pn, p.dcid(), now);
        tracker.onPacketReceived(pn, ackEliciting, now, config.maxAckDelay());
        if (rxEcn >= 0) {
            // RFC 9000 §13.4.1: count the codepoint of every packet processed, per packet number space
            tracker.countEcn(rxEcn);
        }
        if (!isClient && level == EncryptionLevel.HANDSHAKE) {
            // RFC 9000 §8.1: a Handshake packet proves the client received our Initial
            addressValidated = true;
            discardLevel(EncryptionLevel.INITIAL, now);
        }
        resetIdleTimer(now);
    }

    private boolean processFrames(ByteBuffer payload, PacketType type, EncryptionLevel level, long pn, byte[] dcid, long now)
            throws QuicException {
        if (!payload.hasRemaining()) {
            // RFC 9000 §12.4: a packet with no frames is a protocol violation
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, "packet without frames");
        }
        boolean ackEliciting = false;
        List<Frame> logged = qlog.enabled() ? new ArrayList<>() : null;
        int length = payload.remaining();
        while (payload.hasRemaining()) {
            Frame f = FrameCodec.decode(payload);
            if (!FrameRules.allowedIn(f, type)) {
                throw new QuicException(TransportError.PROTOCOL_VIOLATION, f.type(),
                        FrameType.name(f.type()) + " frame not allowed in a " + type + " packet");
            }
            if (f.ackEliciting()) {
                ackEliciting = true;
            }
            if (logged != null) {
                logged.add(f);
            }
            onFrame(f, level, dcid, now);
            if (state == State.DRAINING || state == State.CLOSED) {
                break;
            }
        }
        if (logged != null) {
            qlog.packetReceived(now, type, pn, length, logged);
        }
        return ackEliciting;
    }

    private void onFrame(Frame f, EncryptionLevel level, byte[] dcid, long now) throws QuicException {
        switch (f) {
            case PaddingFrame ignored -> { }
            case PingFrame ignored -> { }
            case AckFrame ack -> onAckFrame(level.space(), ack, now);
            case CryptoFrame c -> {
                tls.receive(level == EncryptionLevel.ZERO_RTT ? EncryptionLevel.ONE_RTT : level, c.offset(), c.data());
                processBufferedPackets(now);
            }
            case StreamFrame s -> onStreamFrame(s);
            case ResetStreamFrame r -> onResetStream(r);
            case StopSendingFrame s -> onStopSending(s);
            case MaxDataFrame m -> {
                long before = flow.sendCredit();
                flow.setPeerMaxData(m.max());
                if (before == 0 && flow.sendCredit() > 0) {
                    requeueBlockedStreams();
                }
            }
            case MaxStreamDataFrame m -> onMaxStreamData(m);
            case MaxStreamsFrame m -> {
                if (streams.onMaxStreams(m.bidirectional(), m.max())) {
                    appEvents.add(app::onStreamsAvailable);
                }
            }
            case DataBlockedFrame ignored -> {
                if (flow.receive().updateNeeded()) {
                    flow.onConsumed(0);
                }
            }
            case StreamDataBlockedFrame b -> {
                if (!org.pacelab.quic.stream.StreamId.canReceive(b.streamId(), isClient)) {
                    throw new QuicException(TransportError.STREAM_STATE_ERROR, f.type(),
                            "STREAM_DATA_BLOCKED for send-only stream " + b.streamId());
                }
            }
            case StreamsBlockedFrame ignored -> { }
            case NewTokenFrame ignored -> {
                if (!isClient) {
                    throw new QuicException(TransportError.PROTOCOL_VIOLATION, f.type(), "a client sent NEW_TOKEN");
                }
            }
            case NewConnectionIdFrame n -> peerCids.onNewConnectionId(n, peerInitialScid != null && peerInitialScid.length == 0);
            case RetireConnectionIdFrame r -> localCids.onRetire(r.sequenceNumber(), dcid, peerActiveCidLimit());
            case PathChallengeFrame c -> controlFrames.add(new PathResponseFrame(c.data()));
            case PathResponseFrame ignored -> { }
            case ConnectionCloseFrame c -> onPeerClose(c, now);
            case HandshakeDoneFrame ignored -> {
                if (!isClient) {
                    throw new QuicException(TransportError.PROTOCOL_VIOLATION, f.type(), "a client sent HANDSHAKE_DONE");
                }
                confirmHandshake(now);
            }
            default -> throw new QuicException(TransportError.FRAME_ENCODING_ERROR, f.type(), "unexpected frame " + f);
        }
    }

    private void onStreamFrame(StreamFrame s) throws QuicException {
        checkStreamDirection(s.streamId(), false, FrameType.STREAM);
        StreamManager.Lookup l = streams.lookupForPeerFrame(s.streamId(), FrameType.STREAM, this::onPeerStreamOpened);
        QuicStream stream = l.stream();
        if (stream == null) {
            return;
        }
        long delta = stream.onStreamFrame(s.offset(), s.data(), s.fin());
        if (!flow.receive().onReceivedMore(delta)) {
            throw new QuicException(TransportError.FLOW_CONTROL_ERROR, FrameType.STREAM, "connection flow-control limit exceeded");
        }
        if (stream.isReadable()) {
            readable.add(stream.id);
        }
    }

    private void onResetStream(ResetStreamFrame r) throws QuicException {
        checkStreamDirection(r.streamId(), false, FrameType.RESET_STREAM);
        StreamManager.Lookup l = streams.lookupForPeerFrame(r.streamId(), FrameType.RESET_STREAM, this::onPeerStreamOpened);
        QuicStream stream = l.stream();
        if (stream == null) {
            return;
        }
        long readBefore = stream.bytesRead();
        boolean wasReset = stream.recvState() == QuicStream.RecvState.RESET_RECVD
                || stream.recvState() == QuicStream.RecvState.RESET_READ;
        long delta = stream.onResetStream(r.errorCode(), r.finalSize());
        if (!flow.receive().onReceivedMore(delta)) {
            throw new QuicException(TransportError.FLOW_CONTROL_ERROR, FrameType.RESET_STREAM, "connection flow-control limit exceeded");
        }
        if (!wasReset) {
            // bytes up to the final size that the application will never read are released from the
            // connection window (RFC 9000 §4.5)
            flow.onConsumed(Math.max(0, r.finalSize() - readBefore));
        }
        if (stream.takePeerReset()) {
            long id = stream.id;
            long code = r.errorCode();
            appEvents.add(() -> app.onStreamReset(id, code));
        }
        maybeForget(stream);
    }

    private void onStopSending(StopSendingFrame s) throws QuicException {
        checkStreamDirection(s.streamId(), true, FrameType.STOP_SENDING);
        StreamManager.Lookup l = streams.lookupForPeerFrame(s.streamId(), FrameType.STOP_SENDING, this::onPeerStreamOpened);
        QuicStream stream = l.stream();
        if (stream == null) {
            return;
        }
        stream.onStopSending(s.errorCode());
        streams.markSendable(stream);
        long id = stream.id;
        long code = s.errorCode();
        appEvents.add(() -> app.onStopSending(id, code));
    }

    private void onMaxStreamData(MaxStreamDataFrame m) throws QuicException {
        checkStreamDirection(m.streamId(), true, FrameType.MAX_STREAM_DATA);
        StreamManager.Lookup l = streams.lookupForPeerFrame(m.streamId(), FrameType.MAX_STREAM_DATA, this::onPeerStreamOpened);
        QuicStream stream = l.stream();
        if (stream == null) {
            return;
        }
        if (stream.onMaxStreamData(m.max()) && stream.hasDataToSend()) {
            streams.markSendable(stream);
        }
    }

    /** RFC 9000 §19.4–19.11: frames about sending must name streams we can send on, and vice versa. */
    private void checkStreamDirection(long id, boolean weSend, long frameType) throws QuicException {
        boolean ok = weSend ? org.pacelab.quic.stream.StreamId.canSend(id, isClient)
                : org.pacelab.quic.stream.StreamId.canReceive(id, isClient);
        if (!ok) {
            throw new QuicException(TransportError.STREAM_STATE_ERROR, frameType,
                    FrameType.name(frameType) + " for stream " + id + " which " + (weSend ? "we cannot send on" : "the peer cannot send on"));
        }
    }

    private void onPeerStreamOpened(long id) {
        appEvents.add(() -> app.onPeerStreamOpened(id));
    }

    private void requeueBlockedStreams() {
        for (QuicStream s : streams.all()) {
            if (s.hasDataToSend()) {
                streams.markSendable(s);
            }
        }
    }

    private void onAckFrame(PacketSpace space, AckFrame ack, long now) throws QuicException {
        if (ack.largestAcknowledged() >= nextPn[space.ordinal()]) {
            // RFC 9000 §13.1: acknowledging a packet never sent
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, ack.type(),
                    "ACK for packet " + ack.largestAcknowledged() + " which was never sent");
        }
        long ackDelay = space == PacketSpace.APPLICATION ? (ack.ackDelay() << peerAckDelayExponent) * 1000L : 0;
        int ptoBefore = recovery.loss().ptoCount();
        LossDetector.AckResult r = recovery.onAck(space, ack.ranges(), ackDelay, peerMaxAckDelay, handshakeConfirmed, now);
        if (isClient && !peerValidatedOurAddress && space == PacketSpace.INITIAL) {
            // RFC 9002 §A.7: keep backing off until the server has validated our address
            recovery.loss().keepPtoBackoff(ptoBefore);
        }
        if (isClient && space == PacketSpace.HANDSHAKE) {
            peerValidatedOurAddress = true;
        }
        for (SentPacket p : r.newlyAcked()) {
            onPacketAcked(p);
        }
        if (!r.newlyAcked().isEmpty()) {
            // RFC 9000 §13.4.2.1: validate the peer's ECN counts against the marked packets this ACK newly acknowledges
            ecn.onAck(space, r.newlyAcked().stream().map(p -> p.packetNumber).toList(), ack.ecn());
        }
        handleLost(r.lost(), now);
        if (space == PacketSpace.APPLICATION && !r.newlyAcked().isEmpty()) {
            keys.onAcked(ack.largestAcknowledged());
        }
        for (QuicStream s : streams.all()) {
            if (s.takeWritable()) {
                long id = s.id;
                appEvents.add(() -> app.onStreamWritable(id));
            }
        }
    }

    private void onPacketAcked(SentPacket p) {
        for (Frame f : p.frames) {
            switch (f) {
                case StreamDataSent s -> {
                    QuicStream stream = streams.get(s.streamId());
                    if (stream != null && stream.onDataAcked(s.offset(), s.length(), s.fin())) {
                        long id = stream.id;
                        appEvents.add(() -> app.onStreamComplete(id));
                        maybeForget(stream);
                    }
                }
                case CryptoDataSent c -> tls.outgoing(c.level()).onAcked(c.offset(), c.length(), false);
                case AckFrame a -> acks[p.space.ordinal()].onAckAcknowledged(a.largestAcknowledged());
                case ResetStreamFrame r -> {
                    QuicStream stream = streams.get(r.streamId());
                    if (stream != null) {
                        stream.onResetAcked();
                        maybeForget(stream);
                    }
                }
                default -> { }
            }
        }
    }

    private void handleLost(List<SentPacket> lost, long now) {
        for (SentPacket p : lost) {
            packetsLost++;
            requeueFrames(p, true);
            ecn.onLost(p.space, List.of(p.packetNumber));
        }
    }

    /** The ECN codepoint of the datagram the last {@link #send} call wrote (RFC 3168: 0b10 ECT(0), 0 Not-ECT). */
    public int ecnCodepoint() {
        return txEcn;
    }

    /** The sender's ECN state (RFC 9000 Appendix A.4) and why it failed, if it did. */
    public EcnValidator ecn() {
        return ecn;
    }

    /** Re-queues what a lost (or PTO-probed) packet carried (RFC 9000 §13.3). */
    private void requeueFrames(SentPacket p, boolean lost) {
        for (Frame f : p.frames) {
            switch (f) {
                case StreamDataSent s -> {
                    QuicStream stream = streams.get(s.streamId());
                    if (stream != null) {
                        stream.onDataLost(s.offset(), s.length(), s.fin());
                        if (stream.hasDataToSend()) {
                            streams.markSendable(stream);
                        }
                    }
                }
                case CryptoDataSent c -> {
                    if (keys.hasTx(c.level())) {
                        tls.outgoing(c.level()).onLost(c.offset(), c.length(), false);
                    }
                }
                case MaxDataFrame ignored -> flow.onMaxDataLost();
                case MaxStreamDataFrame m -> windowUpdates.add(m.streamId());
                case MaxStreamsFrame m -> streams.onMaxStreamsLost(m.bidirectional());
                case NewConnectionIdFrame n -> localCids.onLost(n);
                case RetireConnectionIdFrame r -> peerCids.retirePending().add(r.sequenceNumber());
                case ResetStreamFrame r -> {
                    QuicStream stream = streams.get(r.streamId());
                    if (stream != null) {
                        stream.onResetLost();
                        streams.markSendable(stream);
                    }
                }
                case StopSendingFrame s -> {
                    QuicStream stream = streams.get(s.streamId());
                    if (stream != null) {
                        stream.onStopSendingLost();
                        streams.markSendable(stream);
                    }
                }
                case HandshakeDoneFrame ignored -> handshakeDonePending = true;
                default -> { }
            }
        }
    }

    private void maybeForget(QuicStream s) {
        if (s.isFinished()) {
            streams.remove(s);
            readable.remove(s.id);
            windowUpdates.remove(s.id);
        }
    }

    private void processBufferedPackets(long now) throws QuicException {
        if (undecryptable.isEmpty()) {
            return;
        }
        int n = undecryptable.size();
        for (int i = 0; i < n; i++) {
            byte[] packet = undecryptable.poll();
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
            if (keys.hasRx(level)) {
                decryptAndProcess(b, p, level, now);
            } else {
                undecryptable.add(packet);
            }
        }
    }

    /**
     * Whether a long-header packet of another version than the one in use belongs to this connection (RFC 9368 §4): the
     * server's first Initial in the version it negotiated (the client switches to it; its Handshake packets may come
     * first), or the client's Initials in its original version until it learned of the server's switch.
     */
    private boolean acceptVersion(ParsedPacket p) {
        boolean ours = config.versions().contains(p.version());
        if (isClient && !firstServerPacketSeen && ours) {
            if (p.type() == PacketType.INITIAL) {
                version = p.version();
                keys.switchVersion(VersionProtection.of(version));
            }
            return p.type() == PacketType.INITIAL || p.type() == PacketType.HANDSHAKE;
        }
        return !isClient && p.type() == PacketType.INITIAL && p.version() == originalVersion;
    }

    private void onVersionNegotiation(ParsedPacket p, long now) {
        // RFC 9000 §6.2: a client abandons the attempt when no version it supports is offered
        if (!isClient || firstServerPacketSeen || packetsReceived > 0) {
            return;
        }
        for (int v : p.versions()) {
            if (v == version) {
                // RFC 9000 §6.2: a Version Negotiation packet that lists the version in use is ignored
                return;
            }
        }
        closeSilently(now, TransportError.CONNECTION_REFUSED.code, "server supports none of our versions: "
                + Arrays.toString(p.versions()));
    }

    private void onRetry(ByteBuffer dg, ParsedPacket p, long now) {
        // RFC 9000 §17.2.5.2: a client accepts one Retry, before any other server packet
        if (!isClient || retryReceived || firstServerPacketSeen) {
            return;
        }
        if (!Retry.verify(dg, p, originalDcid) || p.token().length == 0) {
            drop(now, PacketType.RETRY, p.packetEnd() - p.headerStart(), "retry_integrity");
            return;
        }
        retryReceived = true;
        token = p.token().clone();
        peerCids.replaceInitial(p.scid());
        peerInitialScid = null;
        keys.resetInitial(p.scid());
        retryScidSeen = p.scid().clone();
        // everything sent in Initial packets is sent again with the new keys (RFC 9002 §6.3)
        for (SentPacket sp : recovery.loss().removeAll(PacketSpace.INITIAL)) {
            requeueFrames(sp, false);
        }
    }

    private byte[] retryScidSeen;
    private byte[] resetTokenAnnounced;

    private void onStatelessReset(long now) {
        // RFC 9000 §10.3.1: the connection is over; no further packets are sent
        state = State.DRAINING;
        closeDeadline = now;
        reportClosed(0, false, "stateless reset", false, now);
    }

    private void onPeerClose(ConnectionCloseFrame c, long now) {
        if (state == State.DRAINING || state == State.CLOSED) {
            return;
        }
        // RFC 9000 §10.2.2: enter the draining state for three PTOs
        state = State.DRAINING;
        closeDeadline = now + 3 * recovery.rtt().ptoBase();
        reportClosed(c.errorCode(), c.application(), c.reason(), false, now);
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

    // =============================================================================================
    // TLS events
    // =============================================================================================

    private final class TlsListener implements TlsHandshake.Listener {
        @Override
        public void onSecrets(EncryptionLevel level, CipherSuite suite, byte[] clientSecret, byte[] serverSecret) {
            keys.install(level, suite, clientSecret, serverSecret);
        }

        @Override
        public void onPeerTransportParameters(byte[] encoded) throws QuicException {
            TransportParameters tp = TransportParameters.decode(encoded, isClient);
            negotiateVersion(tp.versionInformation());
            applyPeerTransportParameters(tp);
            peerParamsEncoded = encoded.clone();
        }

        @Override
        public void onSessionTicket(byte[] tlsTicket, boolean earlyDataAllowed) {
            // RFC 9000 §7.4.1: the server's transport parameters are kept with the ticket for 0-RTT
            if (isClient && peerParamsEncoded != null) {
                sessionTicket = new SessionTicket(tlsTicket, peerParamsEncoded, earlyDataAllowed);
            }
        }

        @Override
        public void onHandshakeComplete() {
            handshakeComplete = true;
            state = State.ESTABLISHED;
            if (!isClient) {
                // RFC 9001 §4.1.2: the server confirms the handshake when it completes
                handshakeDonePending = true;
                confirmHandshakeNow = true;
            }
            localCids.issueUpTo(peerActiveCidLimit());
            if (!connectedReported) {
                connectedReported = true;
                appEvents.add(() -> app.onConnected(QuicConnection.this));
            }
        }
    }

    private boolean confirmHandshakeNow;

    /**
     * Compatible version negotiation (RFC 9368 §4) as the peer's version_information allows. A server switches to the
     * first of its versions the client offers — its Initial and every later packet then use it — and says so in its
     * own version_information; it refuses a client whose Chosen Version is not the version its first Initial came in
     * (a downgrade). A client checks that the server's Chosen Version is the version it now uses.
     */
    private void negotiateVersion(TransportParameters.VersionInformation peer) throws QuicException {
        if (isClient) {
            if (peer == null ? version != originalVersion : peer.chosenVersion() != version) {
                throw new QuicException(TransportError.VERSION_NEGOTIATION_ERROR, "the server's version_information "
                        + (peer == null ? "is missing" : "names version " + QuicVersion.name(peer.chosenVersion()))
                        + " and this connection uses " + QuicVersion.name(version) + " (RFC 9368 §4)");
            }
            return;
        }
        if (peer == null) {
            return;
        }
        if (peer.chosenVersion() != originalVersion) {
            throw new QuicException(TransportError.VERSION_NEGOTIATION_ERROR, "the client's version_information chose "
                    + QuicVersion.name(peer.chosenVersion()) + " but its first Initial was " + QuicVersion.name(originalVersion)
                    + " (RFC 9368 §4)");
        }
        for (int v : config.versions()) {
            if (peer.offers(v)) {
                if (v != version) {
                    version = v;
                    keys.switchVersion(VersionProtection.of(v));
                    tls.setLocalTransportParameters(localTransportParameters(resetTokens).encode());
                }
                return;
            }
        }
    }

    /** The QUIC version this connection sends in (RFC 9000 §15, RFC 9369). */
    public int version() {
        return version;
    }
    private byte[] peerParamsEncoded;
    private SessionTicket sessionTicket;

    /** Client: the latest session ticket the server issued (with its transport parameters), or null. */
    public SessionTicket sessionTicket() {
        return sessionTicket;
    }

    /** Whether this connection's handshake resumed a session (RFC 8446 §2.2: no certificate exchanged). */
    public boolean resumed() {
        return tls.resumed();
    }

    private void applyPeerTransportParameters(TransportParameters tp) throws QuicException {
        // RFC 9000 §7.3: authenticate the connection IDs used during the handshake
        if (isClient) {
            if (!Arrays.equals(tp.originalDestinationConnectionId(), originalDcid)) {
                throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "original_destination_connection_id mismatch");
            }
            if (retryReceived ? !Arrays.equals(tp.retrySourceConnectionId(), retryScidSeen) : tp.retrySourceConnectionId() != null) {
                throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "retry_source_connection_id mismatch");
            }
        }
        if (peerInitialScid != null && !Arrays.equals(tp.initialSourceConnectionId(), peerInitialScid)) {
            throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "initial_source_connection_id mismatch");
        }
        if (tp.initialSourceConnectionId() == null) {
            throw new QuicException(TransportError.TRANSPORT_PARAMETER_ERROR, "initial_source_connection_id missing");
        }
        peerParams = tp;
        streams.setPeerLimits(tp.initialMaxStreamDataBidiLocal(), tp.initialMaxStreamDataBidiRemote(),
                tp.initialMaxStreamDataUni(), tp.initialMaxStreamsBidi(), tp.initialMaxStreamsUni());
        flow.setPeerMaxData(tp.initialMaxData());
        peerMaxAckDelay = tp.maxAckDelay() * 1_000_000L;
        peerAckDelayExponent = (int) tp.ackDelayExponent();
        peerMaxUdpPayload = tp.maxUdpPayloadSize();
        peerIdleTimeout = tp.maxIdleTimeout() * 1_000_000L;
        if (tp.statelessResetToken() != null) {
            peerCids.setInitialResetToken(tp.statelessResetToken());
        }
        if (qlog.enabled()) {
            qlog.parametersSet(0, false, parameterMap(tp));
        }
    }

    private int peerActiveCidLimit() {
        long peer = peerParams == null ? 2 : peerParams.activeConnectionIdLimit();
        return (int) Math.min(peer, config.activeConnectionIdLimit());
    }

    private void confirmHandshake(long now) {
        if (handshakeConfirmed) {
            return;
        }
        handshakeConfirmed = true;
        peerValidatedOurAddress = true;
        // RFC 9001 §4.9.2: discard Handshake keys once the handshake is confirmed
        discardLevel(EncryptionLevel.HANDSHAKE, now);
    }

    private void discardLevel(EncryptionLevel level, long now) {
        if (!keys.hasTx(level) && !keys.hasRx(level)) {
            return;
        }
        keys.discard(level);
        recovery.discardSpace(level.space(), now);
        probes[level.space().ordinal()] = 0;
    }

    private boolean spaceDiscarded(PacketSpace space) {
        return recovery.loss().isDiscarded(space);
    }

    // =============================================================================================
    // Sending
    // =============================================================================================

    /** Largest datagram we send: our configured size, within the peer's max_udp_payload_size. */
    public int maxDatagramSize() {
        return (int) Math.min(config.maxUdpPayloadSize(), peerMaxUdpPayload);
    }

    /** A packet laid out in the datagram, sealed once the datagram is complete. */
    private static final class Layout {
        EncryptionLevel level;
        long pn;
        int pnLen;
        int headerStart;
        int pnOffset;
        int lengthOffset = -1;
        int payloadStart;
        int payloadEnd;
        boolean ackEliciting;
        boolean inFlight;
        List<Frame> frames;
    }

    /**
     * Writes the next datagram into {@code out} (from its position, up to its limit), coalescing packets of
     * several encryption levels when useful.
     */
    public SendResult send(ByteBuffer out, long now) {
        if (state == State.CLOSED || state == State.DRAINING) {
            return SendResult.NOTHING;
        }
        if (confirmHandshakeNow) {
            confirmHandshakeNow = false;
            confirmHandshake(now);
        }
        if (idle) {
            readySince = now;
        }
        maybeInitiateKeyUpdate(now);
        // every packet of this datagram carries the same ECN mark: the one the runtime puts on the datagram
        txEcn = ecn.codepoint();
        int start = out.position();
        int room = Math.min(out.remaining(), maxDatagramSize());
        if (!isClient && !addressValidated) {
            // RFC 9000 §8.1: three times what the client sent, until its address is validated
            long allowance = 3 * bytesReceived - bytesSent;
            room = (int) Math.max(0, Math.min(room, allowance));
        }
        if (room < MIN_PACKET_ROOM) {
            return SendResult.NOTHING;
        }
        if (state == State.CLOSING) {
            return sendClose(out, room, now);
        }
        boolean probing = probes[0] + probes[1] + probes[2] > 0;
        boolean cwndOpen = probing || recovery.congestionWindowRoom() > 0;
        boolean elicitingWaiting = anyAckElicitingWaiting();
        long intended = now;
        boolean mayElicit = cwndOpen;
        long pacedUntil = 0;
        if (elicitingWaiting && cwndOpen && !probing && handshakeComplete) {
            long release = recovery.pacer().releaseTime(now, maxDatagramSize());
            if (release > now + config.pacingLookahead()) {
                if (!anyAckDue(now)) {
                    return SendResult.blocked(release);
                }
                // an ACK goes out now; the paced data waits
                mayElicit = false;
                pacedUntil = release;
            } else {
                intended = Math.max(release, readySince);
            }
        }
        List<Layout> built = new ArrayList<>(3);
        boolean needsPadding = false;
        for (EncryptionLevel level : new EncryptionLevel[] {EncryptionLevel.INITIAL, EncryptionLevel.HANDSHAKE, EncryptionLevel.ONE_RTT}) {
            int remaining = start + room - out.position();
            if (remaining < MIN_PACKET_ROOM || !keys.hasTx(level)) {
                continue;
            }
            Layout l = buildPacket(level, out, remaining, mayElicit, now);
            if (l != null) {
                built.add(l);
                if (level == EncryptionLevel.INITIAL && (isClient || l.ackEliciting)) {
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
            if (!elicitingWaiting && recovery.congestionWindowRoom() >= maxDatagramSize()) {
                recovery.setAppLimited(now, true);
            }
            return SendResult.NOTHING;
        }
        // RFC 9000 §14.1: datagrams carrying Initial packets are at least 1200 bytes
        Layout last = built.get(built.size() - 1);
        if (needsPadding) {
            int size = out.position() - start;
            int target = Math.min(ConnectionConfig.MIN_INITIAL_SIZE, room);
            if (size < target) {
                pad(out, last, target - size);
                last.frames.add(new PaddingFrame(target - size));
                last.inFlight = true;
            }
        }
        boolean anyEliciting = false;
        for (Layout l : built) {
            int packetEnd = seal(out, l);
            record(l, packetEnd - l.headerStart, intended, now);
            anyEliciting |= l.ackEliciting;
        }
        int length = out.position() - start;
        bytesSent += length;
        if (anyEliciting) {
            recovery.setAppLimited(now, false);
        }
        return new SendResult(length, anyEliciting ? intended : now, 0);
    }

    /** Appends {@code n} PADDING bytes to the last laid-out packet, moving its tag space behind them. */
    private static void pad(ByteBuffer out, Layout last, int n) {
        out.position(last.payloadEnd);
        for (int i = 0; i < n; i++) {
            out.put((byte) 0);
        }
        last.payloadEnd += n;
        out.position(last.payloadEnd + 16);
    }

    /** Builds one packet's header and plaintext payload at the buffer's position; null if nothing to send. */
    private Layout buildPacket(EncryptionLevel level, ByteBuffer out, int room, boolean mayElicit, long now) {
        PacketSpace space = level.space();
        int si = space.ordinal();
        AckTracker tracker = acks[si];
        boolean ackDue = tracker.ackDue(now) && tracker.hasReceived();
        boolean probe = probes[si] > 0;
        boolean elicit = mayElicit || probe;
        SendBuffer crypto = tls.outgoing(level);
        boolean hasCrypto = crypto.hasDataToSend(Long.MAX_VALUE);
        boolean hasApp = level == EncryptionLevel.ONE_RTT && handshakeComplete && appDataWaiting();
        if (!ackDue && !probe && !(elicit && (hasCrypto || hasApp))) {
            return null;
        }
        Layout l = new Layout();
        l.level = level;
        l.pn = nextPn[si];
        l.pnLen = PacketNumbers.encodedLength(l.pn, recovery.loss().largestAcked(space));
        l.headerStart = out.position();
        byte[] dcid = peerCids.current();
        if (level == EncryptionLevel.ONE_RTT) {
            PacketWriter.writeShortHeader(out, keys.keyPhase() == 1, false, dcid, l.pnLen);
        } else {
            l.lengthOffset = PacketWriter.writeLongHeader(out, level.packetType(), version, dcid, initialScid,
                    isClient && level == EncryptionLevel.INITIAL ? token : EMPTY, l.pnLen, 2);
        }
        l.pnOffset = out.position();
        PacketNumbers.write(out, l.pn, l.pnLen);
        l.payloadStart = out.position();
        int limit = l.headerStart + room - 16;
        l.frames = new ArrayList<>(4);
        ByteBuffer payload = out.duplicate();
        payload.limit(limit);
        // ACK first, piggybacked whenever there is anything new to acknowledge
        if (tracker.hasNewAcks() && tracker.hasReceived()) {
            AckFrame ack = tracker.buildAck(now, level == EncryptionLevel.ONE_RTT ? config.ackDelayExponent() : 0);
            if (FrameCodec.encodedLength(ack) <= payload.remaining()) {
                FrameCodec.encode(ack, payload);
                l.frames.add(ack);
                tracker.onAckSent();
            }
        }
        if (elicit) {
            writeCrypto(level, crypto, payload, l);
            if (level == EncryptionLevel.ONE_RTT && handshakeComplete) {
                writeApplicationFrames(payload, l, now);
            }
        }
        if (probe && !l.ackEliciting) {
            if (payload.remaining() >= 1) {
                FrameCodec.encode(new PingFrame(), payload);
                l.frames.add(new PingFrame());
                l.ackEliciting = true;
                l.inFlight = true;
            }
        }
        if (probe && l.ackEliciting) {
            probes[si]--;
        }
        if (l.frames.isEmpty()) {
            out.position(l.headerStart);
            return null;
        }
        // RFC 9001 §5.4.2: enough bytes after the packet number for the header protection sample
        int minPayload = 4 - l.pnLen;
        while (payload.position() - l.payloadStart < minPayload) {
            payload.put((byte) 0);
        }
        l.payloadEnd = payload.position();
        // leave room for the AEAD tag before a coalesced packet that may follow
        out.position(l.payloadEnd + 16);
        return l;
    }

    private void writeCrypto(EncryptionLevel level, SendBuffer crypto, ByteBuffer payload, Layout l) {
        while (payload.remaining() > 24) {
            // CRYPTO frame header: type, offset, length (at most 1 + 8 + 4 bytes)
            int max = payload.remaining() - 13;
            SendBuffer.Piece piece = crypto.next(max, Long.MAX_VALUE);
            if (piece == null || piece.length() == 0) {
                break;
            }
            payload.put((byte) FrameType.CRYPTO);
            org.pacelab.quic.wire.VarInt.write(payload, piece.offset());
            org.pacelab.quic.wire.VarInt.write(payload, piece.length());
            crypto.copy(piece.offset(), piece.length(), payload);
            l.frames.add(new CryptoDataSent(level, piece.offset(), piece.length()));
            l.ackEliciting = true;
            l.inFlight = true;
        }
    }

    private boolean appDataWaiting() {
        if (handshakeDonePending || !controlFrames.isEmpty() || flow.maxDataPending() || flow.blockedPending()
                || !windowUpdates.isEmpty() || !localCids.pending().isEmpty() || !peerCids.retirePending().isEmpty()
                || streams.maxStreamsPending(true) || streams.maxStreamsPending(false)
                || streams.streamsBlockedPending(true) || streams.streamsBlockedPending(false)) {
            return true;
        }
        for (QuicStream s : streams.sendQueue()) {
            if (s.resetPending() || s.stopSendingPending() || s.dataBlockedPending()) {
                return true;
            }
            if (s.hasDataToSend() && (flow.sendCredit() > 0 || s.sendBuffer().hasLost()
                    || s.sendBuffer().unsent() == 0)) {
                return true;
            }
        }
        return false;
    }

    private boolean anyAckElicitingWaiting() {
        for (EncryptionLevel level : EncryptionLevel.ALL) {
            if (level != EncryptionLevel.ZERO_RTT && keys.hasTx(level) && tls.outgoing(level).hasDataToSend(Long.MAX_VALUE)) {
                return true;
            }
        }
        return handshakeComplete && appDataWaiting();
    }

    private boolean anyAckDue(long now) {
        for (EncryptionLevel level : new EncryptionLevel[] {EncryptionLevel.INITIAL, EncryptionLevel.HANDSHAKE, EncryptionLevel.ONE_RTT}) {
            AckTracker t = acks[level.space().ordinal()];
            if (keys.hasTx(level) && t.ackDue(now) && t.hasReceived()) {
                return true;
            }
        }
        return false;
    }

    private void writeApplicationFrames(ByteBuffer payload, Layout l, long now) {
        if (handshakeDonePending && !isClient && payload.remaining() >= 1) {
            add(payload, l, new HandshakeDoneFrame());
            handshakeDonePending = false;
        }
        while (!controlFrames.isEmpty() && FrameCodec.encodedLength(controlFrames.peek()) <= payload.remaining()) {
            add(payload, l, controlFrames.poll());
        }
        if (flow.maxDataPending() && payload.remaining() >= 9) {
            add(payload, l, new MaxDataFrame(flow.takeMaxData(now, recovery.rtt().smoothedRtt())));
        }
        for (var it = windowUpdates.iterator(); it.hasNext() && payload.remaining() >= 17; ) {
            long id = it.next();
            it.remove();
            QuicStream s = streams.get(id);
            if (s != null && s.canReceive()) {
                add(payload, l, new MaxStreamDataFrame(id, s.receiveWindow().update(now, recovery.rtt().smoothedRtt())));
            }
        }
        for (boolean bidi : new boolean[] {true, false}) {
            if (streams.maxStreamsPending(bidi) && payload.remaining() >= 9) {
                add(payload, l, new MaxStreamsFrame(bidi, streams.takeMaxStreams(bidi)));
            }
            if (streams.streamsBlockedPending(bidi) && payload.remaining() >= 9) {
                add(payload, l, new StreamsBlockedFrame(bidi, streams.takeStreamsBlocked(bidi)));
            }
        }
        while (!localCids.pending().isEmpty() && FrameCodec.encodedLength(localCids.pending().peek()) <= payload.remaining()) {
            add(payload, l, localCids.pending().poll());
        }
        while (!peerCids.retirePending().isEmpty() && payload.remaining() >= 9) {
            add(payload, l, new RetireConnectionIdFrame(peerCids.retirePending().poll()));
        }
        if (flow.blockedPending() && payload.remaining() >= 9) {
            add(payload, l, new DataBlockedFrame(flow.peerMaxData()));
            flow.blockedSent();
        }
        writeStreams(payload, l);
    }

    private void add(ByteBuffer payload, Layout l, Frame f) {
        FrameCodec.encode(f, payload);
        l.frames.add(f);
        if (f.ackEliciting()) {
            l.ackEliciting = true;
        }
        if (f.countsInFlight()) {
            l.inFlight = true;
        }
    }

    /** Stream frames, round-robin over streams with something to send (one frame per stream per turn). */
    private void writeStreams(ByteBuffer payload, Layout l) {
        ArrayDeque<QuicStream> queue = streams.sendQueue();
        int turns = queue.size();
        boolean wroteData = false;
        while (turns-- > 0 && payload.remaining() > MAX_STREAM_HEADER && !queue.isEmpty()) {
            QuicStream s = queue.pollFirst();
            if (s.resetPending() && payload.remaining() >= 25) {
                add(payload, l, new ResetStreamFrame(s.id, s.resetCode(), s.resetFinalSize()));
                s.resetSent();
            }
            if (s.stopSendingPending() && payload.remaining() >= 17) {
                add(payload, l, new StopSendingFrame(s.id, s.stopSendingCode()));
                s.stopSendingSent();
            }
            if (s.dataBlockedPending() && payload.remaining() >= 17) {
                add(payload, l, new StreamDataBlockedFrame(s.id, s.sendLimit()));
                s.dataBlockedSent();
            }
            if (s.hasDataToSend()) {
                SendBuffer buf = s.sendBuffer();
                long flowLimit = Math.min(s.sendLimit(), buf.sentOffset() + flow.sendCredit());
                // the largest STREAM header a piece can need: its offset is at most the next unsent one (lost
                // ranges lie below it) and its length at most the room
                int room = payload.remaining();
                int header = StreamFrame.headerLength(s.id, buf.sentOffset(), room);
                int maxData = room - header;
                SendBuffer.Piece piece = buf.next(maxData, flowLimit);
                if (piece != null) {
                    StreamFrame.encodeHeader(payload, s.id, piece.offset(), piece.length(), piece.fin());
                    buf.copy(piece.offset(), piece.length(), payload);
                    l.frames.add(new StreamDataSent(s.id, piece.offset(), piece.length(), piece.fin()));
                    wroteData = true;
                    l.ackEliciting = true;
                    l.inFlight = true;
                    if (!piece.retransmission()) {
                        flow.onNewDataSent(piece.length());
                    }
                    if (piece.fin()) {
                        s.onFinSent();
                    }
                } else {
                    s.noteFlowBlocked();
                    if (flow.sendCredit() == 0) {
                        flow.noteBlocked();
                    }
                }
            }
            if (s.hasDataToSend() && (flow.sendCredit() > 0 || s.sendBuffer().hasLost()) || s.resetPending()
                    || s.stopSendingPending() || s.dataBlockedPending()) {
                queue.addLast(s);
            } else if (s.hasDataToSend()) {
                // blocked by connection flow control: wait for MAX_DATA (requeueBlockedStreams)
                flow.noteBlocked();
            }
        }
        int slack = payload.remaining();
        if (wroteData && slack > 0 && slack <= MAX_STREAM_HEADER) {
            // too little room for another STREAM frame (the header came out shorter than its bound, or a
            // retransmitted range was shorter than the room): pad, so that every full datagram has the same size —
            // UDP GSO cuts a buffer into equal segments (RFC 9000 §19.1 PADDING)
            for (int k = 0; k < slack; k++) {
                payload.put((byte) 0);
            }
            l.frames.add(new PaddingFrame(slack));
        }
    }

    /** Patches the Length field, encrypts the payload and applies header protection; returns the packet end. */
    private int seal(ByteBuffer out, Layout l) {
        int payloadLength = l.payloadEnd - l.payloadStart;
        if (l.lengthOffset >= 0) {
            PacketWriter.patchLength(out, l.lengthOffset, l.pnLen + payloadLength + 16);
        }
        PacketKeys k = keys.tx(l.level);
        int cipherLength = k.seal(out, l.headerStart, l.payloadStart - l.headerStart, l.payloadStart, payloadLength, l.pn);
        HeaderProtection.apply(out, l.headerStart, l.pnOffset, k);
        return l.payloadStart + cipherLength;
    }

    private void record(Layout l, int size, long intended, long now) {
        PacketSpace space = l.level.space();
        nextPn[space.ordinal()]++;
        packetsSent++;
        // RFC 9002 §A.1.1 time_sent: with a pacing look-ahead the runtime's qdisc (fq/etf, SO_TXTIME) holds a packet
        // released early until its intended time, so that is when it is sent — RTT samples, loss and PTO timers and
        // delivery rates count from there
        long sentAt = l.ackEliciting ? Math.max(now, intended) : now;
        SentPacket sp = new SentPacket(space, l.pn, sentAt, l.ackEliciting ? intended : now, size, l.ackEliciting,
                l.inFlight, l.frames);
        recovery.onPacketSent(sp, now);
        ecn.onSent(space, l.pn, txEcn != 0);
        if (l.level == EncryptionLevel.ONE_RTT) {
            keys.onPacketSent(l.pn);
            packetsSentInKeyPhase++;
        }
        if (qlog.enabled()) {
            qlog.packetSent(now, l.level.packetType(), l.pn, size, sp.intendedSendTime, l.frames);
        }
        if (isClient && l.level == EncryptionLevel.HANDSHAKE) {
            // RFC 9001 §4.9.1: a client discards Initial keys when it first sends a Handshake packet
            discardLevel(EncryptionLevel.INITIAL, now);
        }
        if (l.ackEliciting) {
            // RFC 9000 §10.1: sending an ack-eliciting packet restarts the idle timer if nothing was sent
            // since the last received packet
            resetIdleTimerOnSend(now);
        }
    }

    private SendResult sendClose(ByteBuffer out, int room, long now) {
        if (!closePacketPending) {
            return SendResult.NOTHING;
        }
        closePacketPending = false;
        int start = out.position();
        List<Layout> built = new ArrayList<>(3);
        for (EncryptionLevel level : new EncryptionLevel[] {EncryptionLevel.INITIAL, EncryptionLevel.HANDSHAKE, EncryptionLevel.ONE_RTT}) {
            if (!keys.hasTx(level)) {
                continue;
            }
            if (level == EncryptionLevel.ONE_RTT && !handshakeComplete && keys.hasTx(EncryptionLevel.HANDSHAKE)) {
                continue;
            }
            int remaining = start + room - out.position();
            if (remaining < MIN_PACKET_ROOM) {
                break;
            }
            // RFC 9000 §10.2.3: before the handshake is confirmed an application close is sent as a
            // transport close with APPLICATION_ERROR in Initial and Handshake packets
            ConnectionCloseFrame f = closeFrame;
            if (f.application() && level != EncryptionLevel.ONE_RTT) {
                f = new ConnectionCloseFrame(false, TransportError.APPLICATION_ERROR.code, 0, "");
            }
            Layout l = new Layout();
            l.level = level;
            PacketSpace space = level.space();
            l.pn = nextPn[space.ordinal()];
            l.pnLen = PacketNumbers.encodedLength(l.pn, recovery.loss().largestAcked(space));
            l.headerStart = out.position();
            if (level == EncryptionLevel.ONE_RTT) {
                PacketWriter.writeShortHeader(out, keys.keyPhase() == 1, false, peerCids.current(), l.pnLen);
            } else {
                l.lengthOffset = PacketWriter.writeLongHeader(out, level.packetType(), version, peerCids.current(),
                        initialScid, isClient && level == EncryptionLevel.INITIAL ? token : EMPTY, l.pnLen, 2);
            }
            l.pnOffset = out.position();
            PacketNumbers.write(out, l.pn, l.pnLen);
            l.payloadStart = out.position();
            ByteBuffer payload = out.duplicate();
            payload.limit(l.headerStart + remaining - 16);
            l.frames = new ArrayList<>(1);
            if (FrameCodec.encodedLength(f) > payload.remaining()) {
                f = new ConnectionCloseFrame(f.application(), f.errorCode(), f.frameType(), "");
            }
            FrameCodec.encode(f, payload);
            l.frames.add(f);
            while (payload.position() - l.payloadStart < 4 - l.pnLen) {
                payload.put((byte) 0);
            }
            l.payloadEnd = payload.position();
            out.position(l.payloadEnd + 16);
            built.add(l);
        }
        if (built.isEmpty()) {
            out.position(start);
            return SendResult.NOTHING;
        }
        if (isClient && built.get(0).level == EncryptionLevel.INITIAL) {
            int size = out.position() - start;
            int target = Math.min(ConnectionConfig.MIN_INITIAL_SIZE, room);
            if (size < target) {
                pad(out, built.get(built.size() - 1), target - size);
            }
        }
        for (Layout l : built) {
            int end = seal(out, l);
            nextPn[l.level.space().ordinal()]++;
            if (qlog.enabled()) {
                qlog.packetSent(now, l.level.packetType(), l.pn, end - l.headerStart, now, l.frames);
            }
        }
        int length = out.position() - start;
        bytesSent += length;
        if (closeDeadline == Long.MAX_VALUE) {
            closeDeadline = now + 3 * recovery.rtt().ptoBase();
        }
        return new SendResult(length, now, 0);
    }

    private void maybeInitiateKeyUpdate(long now) {
        if (config.keyUpdateInterval() > 0 && handshakeConfirmed && packetsSentInKeyPhase >= config.keyUpdateInterval()
                && keys.canInitiateUpdate()) {
            keys.update(now + 3 * recovery.rtt().ptoBase());
            packetsSentInKeyPhase = 0;
            if (qlog.enabled()) {
                qlog.keyUpdated(now, "1RTT", keys.generation(), "local_update");
            }
        }
    }

    /** Initiates a 1-RTT key update now if RFC 9001 §6 allows it; returns whether it did. */
    public boolean initiateKeyUpdate(long now) {
        if (!handshakeConfirmed || !keys.canInitiateUpdate()) {
            return false;
        }
        keys.update(now + 3 * recovery.rtt().ptoBase());
        packetsSentInKeyPhase = 0;
        if (qlog.enabled()) {
            qlog.keyUpdated(now, "1RTT", keys.generation(), "local_update");
        }
        return true;
    }

    // =============================================================================================
    // Timers
    // =============================================================================================

    /** The earliest time {@link #onTimeout} must be called, or {@link Long#MAX_VALUE}. */
    public long nextTimeout() {
        if (state == State.CLOSED) {
            return Long.MAX_VALUE;
        }
        if (state == State.CLOSING || state == State.DRAINING) {
            return closeDeadline;
        }
        long t = idleDeadline;
        t = Math.min(t, lossDetectionTimer());
        long ackDeadline = acks[PacketSpace.APPLICATION.ordinal()].ackDeadline();
        if (ackDeadline != Long.MIN_VALUE) {
            t = Math.min(t, ackDeadline);
        }
        t = Math.min(t, keys.previousKeysDiscardTime());
        return t;
    }

    /** RFC 9002 §A.8 SetLossDetectionTimer. */
    private long lossDetectionTimer() {
        LossDetector loss = recovery.loss();
        long lossTime = loss.earliestLossTime();
        if (lossTime != 0) {
            return lossTime;
        }
        if (!isClient && !addressValidated && 3 * bytesReceived <= bytesSent) {
            // at the anti-amplification limit: no timer (the client's PTO unblocks us)
            return Long.MAX_VALUE;
        }
        boolean peerCompletedValidation = !isClient || peerValidatedOurAddress || handshakeConfirmed;
        if (loss.noAckElicitingInFlight() && peerCompletedValidation) {
            return Long.MAX_VALUE;
        }
        LossDetector.Pto pto = loss.ptoTimeAndSpace(handshakeConfirmed, peerMaxAckDelay, isClient,
                keys.hasTx(EncryptionLevel.HANDSHAKE), lastPtoBase());
        return pto == null ? Long.MAX_VALUE : pto.time();
    }

    private long ptoAnchor;

    private long lastPtoBase() {
        return ptoAnchor;
    }

    /** Handles whatever timers expired at {@code now}. */
    public void onTimeout(long now) {
        if (state == State.CLOSED) {
            return;
        }
        markInput(now);
        if ((state == State.CLOSING || state == State.DRAINING) && now >= closeDeadline) {
            state = State.CLOSED;
            qlog.close();
            dispatchAppEvents();
            return;
        }
        if (now >= idleDeadline) {
            // RFC 9000 §10.1: silently close after the idle timeout
            closeSilently(now, TransportError.NO_ERROR.code, "idle timeout");
            dispatchAppEvents();
            return;
        }
        keys.onTimer(now);
        if (now >= lossDetectionTimer()) {
            onLossDetectionTimeout(now);
        }
        dispatchAppEvents();
    }

    /** RFC 9002 §A.9 OnLossDetectionTimeout. */
    private void onLossDetectionTimeout(long now) {
        LossDetector loss = recovery.loss();
        long prior = loss.bytesInFlight();
        LossDetector.TimedLoss timed = loss.onLossTimer(now);
        if (timed != null) {
            recovery.reportLoss(now, timed.lost(), prior, timed.persistentCongestion(), "time_threshold");
            handleLost(timed.lost(), now);
            return;
        }
        LossDetector.Pto pto = loss.ptoTimeAndSpace(handshakeConfirmed, peerMaxAckDelay, isClient,
                keys.hasTx(EncryptionLevel.HANDSHAKE), ptoAnchor);
        PacketSpace space;
        if (loss.noAckElicitingInFlight()) {
            // RFC 9002 §6.2.2.1: the client's anti-deadlock probe
            space = keys.hasTx(EncryptionLevel.HANDSHAKE) ? PacketSpace.HANDSHAKE : PacketSpace.INITIAL;
            ptoAnchor = now;
        } else {
            space = pto == null ? PacketSpace.APPLICATION : pto.space();
        }
        loss.onPtoExpired();
        // RFC 9002 §6.2.4: one or two probes; resend the oldest unacknowledged data in them
        probes[space.ordinal()] = 2;
        List<SentPacket> unacked = loss.unacked(space);
        for (int i = 0; i < Math.min(2, unacked.size()); i++) {
            requeueFrames(unacked.get(i), false);
        }
        if (space == PacketSpace.INITIAL && keys.hasTx(EncryptionLevel.HANDSHAKE) && !isClient) {
            probes[PacketSpace.HANDSHAKE.ordinal()] = Math.max(probes[PacketSpace.HANDSHAKE.ordinal()], 1);
        }
        recovery.logMetrics(now);
    }

    private void resetIdleTimer(long now) {
        long timeout = effectiveIdleTimeout();
        idleDeadline = timeout == 0 ? Long.MAX_VALUE : now + timeout;
        sentElicitingSinceReceive = false;
    }

    private boolean sentElicitingSinceReceive;

    private void resetIdleTimerOnSend(long now) {
        if (!sentElicitingSinceReceive) {
            sentElicitingSinceReceive = true;
            long timeout = effectiveIdleTimeout();
            idleDeadline = timeout == 0 ? Long.MAX_VALUE : now + timeout;
        }
    }

    /** RFC 9000 §10.1: the smaller of both idle timeouts, at least three PTOs. */
    private long effectiveIdleTimeout() {
        long local = config.idleTimeout();
        long t;
        if (local == 0) {
            t = peerIdleTimeout;
        } else if (peerIdleTimeout == 0) {
            t = local;
        } else {
            t = Math.min(local, peerIdleTimeout);
        }
        return t == 0 ? 0 : Math.max(t, 3 * recovery.rtt().ptoBase());
    }

    private void markInput(long now) {
        lastNow = now;
        if (idle) {
            idle = false;
            readySince = now;
        }
    }

    // =============================================================================================
    // Closing
    // =============================================================================================

    /** Closes the connection with a transport error (e.g. the endpoint rejecting a Retry token). */
    public void abort(QuicException e, long now) {
        closeWithError(e, now);
        dispatchAppEvents();
    }

    private void closeWithError(QuicException e, long now) {
        if (state == State.CLOSING || state == State.DRAINING || state == State.CLOSED) {
            return;
        }
        long code = e.errorCode();
        closeFrame = new ConnectionCloseFrame(false, code, e.frameType(), truncate(e.getMessage()));
        enterClosing(now);
        reportClosed(code, false, e.getMessage(), true, now);
    }

    private void enterClosing(long now) {
        state = State.CLOSING;
        closePacketPending = true;
        closeDeadline = now + 3 * recovery.rtt().ptoBase();
    }

    private void closeSilently(long now, long code, String reason) {
        state = State.CLOSED;
        reportClosed(code, false, reason, true, now);
        qlog.close();
    }

    private void reportClosed(long code, boolean application, String reason, boolean local, long now) {
        if (closedReported) {
            return;
        }
        closedReported = true;
        closeErrorCode = code;
        closeApplication = application;
        closeReason = reason == null ? "" : reason;
        closedLocally = local;
        if (qlog.enabled()) {
            qlog.connectionClosed(now, local, code, application, reason);
        }
        appEvents.add(() -> app.onClosed(code, application, closeReason));
    }

    private long closeErrorCode;
    private boolean closeApplication;
    private String closeReason = "";
    private boolean closedLocally;

    private static String truncate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 200 ? s.substring(0, 200) : s;
    }

    private void dispatchAppEvents() {
        // application callbacks may queue more work (and more events); run until quiet
        for (int round = 0; round < 8 && (!appEvents.isEmpty() || !readable.isEmpty()); round++) {
            List<Runnable> events = new ArrayList<>(appEvents);
            appEvents.clear();
            for (Runnable r : events) {
                r.run();
            }
            if (!readable.isEmpty() && state != State.CLOSED) {
                List<Long> ids = new ArrayList<>(readable);
                readable.clear();
                for (long id : ids) {
                    QuicStream s = streams.get(id);
                    if (s != null && s.isReadable()) {
                        app.onStreamReadable(id);
                    }
                }
            }
        }
    }

    // =============================================================================================
    // StreamTransport (the application's view)
    // =============================================================================================

    @Override
    public boolean isClient() { return isClient; }

    @Override
    public String applicationProtocol() { return tls.applicationProtocol(); }

    @Override
    public long openStream(boolean bidirectional) {
        if (state != State.ESTABLISHED) {
            return -1;
        }
        QuicStream s = streams.open(bidirectional);
        return s == null ? -1 : s.id;
    }

    @Override
    public int write(long streamId, ByteBuffer data, boolean fin) {
        QuicStream s = streams.get(streamId);
        if (s == null || !s.canSend() || state != State.ESTABLISHED) {
            return -1;
        }
        int n = s.write(data, fin);
        if (s.hasDataToSend()) {
            streams.markSendable(s);
        }
        return n;
    }

    @Override
    public void finish(long streamId) {
        QuicStream s = streams.get(streamId);
        if (s != null) {
            s.finish();
            if (s.hasDataToSend()) {
                streams.markSendable(s);
            }
        }
    }

    @Override
    public int read(long streamId, ByteBuffer dst) {
        QuicStream s = streams.get(streamId);
        if (s == null) {
            return -1;
        }
        int n = s.read(dst);
        if (n > 0) {
            flow.onConsumed(n);
            if (s.windowUpdateNeeded()) {
                windowUpdates.add(streamId);
            }
        }
        maybeForget(s);
        return n;
    }

    @Override
    public void resetStream(long streamId, long applicationErrorCode) {
        QuicStream s = streams.get(streamId);
        if (s != null) {
            s.reset(applicationErrorCode);
            streams.markSendable(s);
        }
    }

    @Override
    public void stopSending(long streamId, long applicationErrorCode) {
        QuicStream s = streams.get(streamId);
        if (s != null) {
            s.stopSending(applicationErrorCode);
            streams.markSendable(s);
        }
    }

    @Override
    public void close(long applicationErrorCode, String reason) {
        if (state == State.CLOSING || state == State.DRAINING || state == State.CLOSED) {
            return;
        }
        closeFrame = new ConnectionCloseFrame(true, applicationErrorCode, 0, truncate(reason));
        state = State.CLOSING;
        closePacketPending = true;
        // the closing period starts when the CONNECTION_CLOSE leaves (see sendClose)
        closeDeadline = Long.MAX_VALUE;
        reportClosed(applicationErrorCode, true, reason, true, lastNow);
    }

    // =============================================================================================
    // Introspection
    // =============================================================================================

    public State state() { return state; }

    /** Test access: the stateless reset token this (server) connection announced. */
    byte[] statelessResetTokenForTest() { return resetTokenAnnounced; }

    /** Test access: the key schedule. */
    KeySchedule keySchedule() { return keys; }

    /** Test access: the connection ID packets to the peer are addressed to. */
    byte[] peerConnectionId() { return peerCids.current(); }

    /** Test access: the next packet number of a space, then advanced (as if a packet had been sent). */
    long takePacketNumber(PacketSpace space) { return nextPn[space.ordinal()]++; }

    public boolean isClosed() { return state == State.CLOSED; }

    /**
     * Whether nothing more will be sent: closed, draining, or closing with the CONNECTION_CLOSE already
     * sent. A client process may exit then without waiting out the closing period.
     */
    public boolean isTerminated() {
        return state == State.CLOSED || state == State.DRAINING || state == State.CLOSING && !closePacketPending;
    }

    public boolean isHandshakeComplete() { return handshakeComplete; }

    public boolean isHandshakeConfirmed() { return handshakeConfirmed; }

    /** Server side: whether the client's address is validated (RFC 9000 §8.1: Retry token or a Handshake packet). */
    public boolean isAddressValidated() { return isClient || addressValidated; }

    public byte[] originalDestinationConnectionId() { return originalDcid.clone(); }

    public byte[] sourceConnectionId() { return initialScid.clone(); }

    public List<byte[]> localConnectionIds() { return localCids.all(); }

    public Recovery recovery() { return recovery; }

    public CipherSuite cipherSuite() { return tls.selectedSuite(); }

    /** Counters for reports: packets sent, received, dropped (undecryptable or malformed), declared lost. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("packets_sent", packetsSent);
        m.put("packets_received", packetsReceived);
        m.put("packets_dropped", packetsDropped);
        m.put("packets_lost", packetsLost);
        m.put("bytes_sent", bytesSent);
        m.put("key_updates", keys.generation());
        return m;
    }

    /** The error that closed the connection (0 when clean or still open). */
    public long closeErrorCode() { return closeErrorCode; }

    public boolean closedByApplicationError() { return closeApplication; }

    public String closeReason() { return closeReason; }

    public boolean closedLocally() { return closedLocally; }

    private static Map<String, Object> parameterMap(TransportParameters tp) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("max_idle_timeout", tp.maxIdleTimeout());
        m.put("max_udp_payload_size", tp.maxUdpPayloadSize());
        m.put("initial_max_data", tp.initialMaxData());
        m.put("initial_max_stream_data_bidi_local", tp.initialMaxStreamDataBidiLocal());
        m.put("initial_max_stream_data_bidi_remote", tp.initialMaxStreamDataBidiRemote());
        m.put("initial_max_stream_data_uni", tp.initialMaxStreamDataUni());
        m.put("initial_max_streams_bidi", tp.initialMaxStreamsBidi());
        m.put("initial_max_streams_uni", tp.initialMaxStreamsUni());
        m.put("ack_delay_exponent", tp.ackDelayExponent());
        m.put("max_ack_delay", tp.maxAckDelay());
        m.put("active_connection_id_limit", tp.activeConnectionIdLimit());
        m.put("disable_active_migration", tp.disableActiveMigration());
        if (tp.initialSourceConnectionId() != null) {
            m.put("initial_source_connection_id", tp.initialSourceConnectionId());
        }
        if (tp.originalDestinationConnectionId() != null) {
            m.put("original_destination_connection_id", tp.originalDestinationConnectionId());
        }
        return m;
    }
}
