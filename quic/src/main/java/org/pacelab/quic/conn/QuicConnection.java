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
import org.pacelab.quic.frame.StreamsBlockedFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.MalformedPacketException;
import org.pacelab.quic.packet.PacketNumbers;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.packet.Retry;
import org.pacelab.quic.packet.StatelessReset;
import org.pacelab.quic.cc.CongestionControllers;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.AckTracker;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.recovery.LossDetector;
import org.pacelab.quic.recovery.PacketNumberSpace;
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
    /** The levels packets are sent at, in the order they are coalesced into a datagram (RFC 9000 §12.2). */
    private static final EncryptionLevel[] SENT_LEVELS = {EncryptionLevel.INITIAL, EncryptionLevel.HANDSHAKE, EncryptionLevel.ONE_RTT};
    /** The largest ACK_FREQUENCY frame: a 2-byte type and four variable-length integers. */
    private static final int MAX_ACK_FREQUENCY_FRAME = 2 + 4 * 8;
    /** Requested ACK delays are capped below 2^14 ms, the max_ack_delay limit of RFC 9000 §18.2. */
    private static final long MAX_REQUESTED_ACK_DELAY_MICROS = ((1L << 14) - 1) * 1000;
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
    /** Validation of the path the peer moved to (RFC 9000 §8.2, §9.3). */
    private final PathValidator path;
    /** Whether the datagram being received held a non-probing 1-RTT packet with the largest number so far (§9.3). */
    private boolean datagramMovesPath;
    private int lastDatagramSize;
    /** The PATH_CHALLENGE for the next 1-RTT packet, or null. */
    private PathChallengeFrame pathChallenge;
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

    /** Initial, Handshake and application data, indexed by {@link PacketSpace#ordinal()}. */
    private final PacketNumberSpace[] spaces;
    private final Recovery recovery;
    private final EcnValidator ecn;
    /** ECN codepoint of the datagram being processed (-1: the runtime cannot tell), and of the one being built. */
    private int rxEcn = -1;
    private int txEcn;
    private final StreamManager streams;
    private final ConnectionFlowControl flow;

    /** Control frames waiting to be sent, new or lost (stream and CRYPTO data wait in their send buffers). */
    private final PendingFrames pending = new PendingFrames();
    /** What we ask the peer about acknowledging (draft-ietf-quic-ack-frequency). */
    private final AckFrequencySender ackFrequency;

    private TransportParameters peerParams;
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
    /** Whether the path being validated is a new address, whose validation resets congestion and RTT state (§9.4). */
    private boolean newPathNeedsFreshState;
    private long pathResets;

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
        this.path = new PathValidator(random);
        this.originalDcid = originalDcid.clone();
        this.initialScid = localCid.clone();
        this.retryScid = retryScid;
        this.qlog = config.qlog().apply(originalDcid);
        this.keys = new KeySchedule(isClient);
        this.localCids = new LocalConnectionIds(localCid, random, resetTokens, cidListener);
        this.peerCids = new PeerConnectionIds(peerCid, config.activeConnectionIdLimit());
        this.spaces = PacketNumberSpace.all(config.ackElicitingThreshold(), config.maxAckDelay());
        int mds = maxDatagramSize();
        RttEstimator rtt = new RttEstimator(config.initialRtt());
        this.recovery = new Recovery(rtt, spaces, CongestionControllers.create(config.congestion(), mds, random), qlog);
        this.ecn = new EcnValidator(config.ecn());
        this.streams = new StreamManager(isClient, config.streams());
        this.ackFrequency = new AckFrequencySender(config.maxAckRatio());
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
        if (c.keys.hasTx(EncryptionLevel.ZERO_RTT)) {
            c.startEarlyData();
        }
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
                .minAckDelay(config.minAckDelay() >= 0 ? config.minAckDelay() / 1000 : -1)
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

    /**
     * Processes one received UDP datagram (possibly several coalesced packets, RFC 9000 §12.2): a burst of one,
     * as {@link #receiveInBurst} followed by {@link #endReceiveBurst}.
     */
    public void receive(ByteBuffer datagram, long now) {
        receive(datagram, -1, now);
    }

    /**
     * Processes one received UDP datagram that arrived with the ECN codepoint {@code ecn} (0..3 from the IP header; -1
     * when the runtime cannot read it: then nothing is counted and our ACK frames carry no ECN counts): a burst of
     * one, as {@link #receiveInBurst} followed by {@link #endReceiveBurst}.
     */
    public void receive(ByteBuffer datagram, int ecn, long now) {
        receiveInBurst(datagram, ecn, now);
        endReceiveBurst();
    }

    /** {@link #receiveInBurst(ByteBuffer, int, long)} of a datagram whose ECN codepoint the runtime cannot read. */
    public void receiveInBurst(ByteBuffer datagram, long now) {
        receiveInBurst(datagram, -1, now);
    }

    /**
     * Processes one datagram of a burst the runtime read at once (recvmmsg, GRO segments, a simulated batch).
     * Packets, frames and acknowledgement state are handled as each datagram arrives; the application hears of
     * the burst once, at {@link #endReceiveBurst}, and what to acknowledge is decided when the runtime then calls
     * {@link #send}, so a burst is acknowledged as a whole (RFC 9000 §13.2.2; draft-ietf-quic-ack-frequency,
     * "Batch Processing of Packets"). {@code ecn} is the datagram's ECN codepoint, -1 when unknown.
     */
    public void receiveInBurst(ByteBuffer datagram, int ecn, long now) {
        rxEcn = ecn;
        if (state == State.CLOSED) {
            return;
        }
        markInput(now);
        int total = datagram.remaining();
        if (!isClient) {
            bytesReceived += total;
        }
        datagramMovesPath = false;
        lastDatagramSize = total;
        path.onReceived(total);
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
    }

    /**
     * Ends a burst of {@link #receiveInBurst} calls: the application is told what the burst brought (streams
     * readable, opened, reset, the handshake done, the connection closed). The runtime then calls {@link #send}.
     */
    public void endReceiveBurst() {
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
        if (type == PacketType.ZERO_RTT && isClient) {
            // RFC 9000 §17.2.3: only clients send 0-RTT packets
            drop(now, type, p.packetEnd() - p.headerStart(), "unexpected_0rtt");
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
        if (!canProcess(level)) {
            // 0-RTT packets may overtake the Initial whose ClientHello gives their keys (RFC 9001 §5.7)
            if ((level == EncryptionLevel.HANDSHAKE || level == EncryptionLevel.ONE_RTT
                    || level == EncryptionLevel.ZERO_RTT && !handshakeComplete)
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
        long pn = PacketNumbers.decode(spaces[space.ordinal()].received.largest(), truncated, pnLen);
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
        AckTracker tracker = spaces[space.ordinal()].received;
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
            keys.onReceived((firstByte >> 2) & 1, pn);
            if (!isClient && keys.hasRx(EncryptionLevel.ZERO_RTT)) {
                // RFC 9001 §4.9.3: a client that sends 1-RTT packets sends no more 0-RTT ones
                keys.discard(EncryptionLevel.ZERO_RTT);
            }
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
        long largestBefore = tracker.hasReceived() ? tracker.largest() : -1;
        boolean ackEliciting = processFrames(payload, type, level, pn, p.dcid(), now);
        tracker.onPacketReceived(pn, ackEliciting, now);
        if (type == PacketType.ONE_RTT && pn > largestBefore && nonProbing) {
            datagramMovesPath = true;
        }
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

    /** Whether the packet being processed held a frame other than a probing one (RFC 9000 §9.1). */
    private boolean nonProbing;

    private boolean processFrames(ByteBuffer payload, PacketType type, EncryptionLevel level, long pn, byte[] dcid, long now)
            throws QuicException {
        if (!payload.hasRemaining()) {
            // RFC 9000 §12.4: a packet with no frames is a protocol violation
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, "packet without frames");
        }
        boolean ackEliciting = false;
        nonProbing = false;
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
            // RFC 9000 §9.1: PATH_CHALLENGE, PATH_RESPONSE, NEW_CONNECTION_ID and PADDING are probing frames
            nonProbing |= !(f instanceof PathChallengeFrame || f instanceof PathResponseFrame
                    || f instanceof NewConnectionIdFrame || f instanceof PaddingFrame);
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
                if (flow.setPeerMaxData(m.max())) {
                    pending.dataBlocked = false;
                }
                if (before == 0 && flow.sendCredit() > 0) {
                    requeueBlockedStreams();
                }
            }
            case MaxStreamDataFrame m -> onMaxStreamData(m);
            case MaxStreamsFrame m -> {
                if (streams.onMaxStreams(m.bidirectional(), m.max())) {
                    pending.streamsBlocked(m.bidirectional(), false);
                    appEvents.add(app::onStreamsAvailable);
                }
            }
            case DataBlockedFrame ignored -> {
                if (flow.receive().updateNeeded() && flow.onConsumed(0)) {
                    pending.maxData = true;
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
            case NewConnectionIdFrame n -> pending.retireConnectionIds.addAll(
                    peerCids.onNewConnectionId(n, peerInitialScid != null && peerInitialScid.length == 0));
            case RetireConnectionIdFrame r -> pending.newConnectionIds.addAll(
                    localCids.onRetire(r.sequenceNumber(), dcid, peerActiveCidLimit()));
            case PathChallengeFrame c -> pending.pathResponses.add(new PathResponseFrame(c.data()));
            case PathResponseFrame r -> {
                if (path.onResponse(r.data()) && newPathNeedsFreshState) {
                    resetForNewPath(now);
                }
            }
            case ConnectionCloseFrame c -> onPeerClose(c, now);
            case AckFrequencyFrame a -> onAckFrequency(a);
            case ImmediateAckFrame ignored -> {
                requireAckFrequencySupport(f);
                spaces[PacketSpace.APPLICATION.ordinal()].received.requestImmediateAck();
            }
            case HandshakeDoneFrame ignored -> {
                if (!isClient) {
                    throw new QuicException(TransportError.PROTOCOL_VIOLATION, f.type(), "a client sent HANDSHAKE_DONE");
                }
                confirmHandshake(now);
            }
            default -> throw new QuicException(TransportError.FRAME_ENCODING_ERROR, f.type(), "unexpected frame " + f);
        }
    }

    /** The peer's ACK_FREQUENCY (draft-ietf-quic-ack-frequency §4): acknowledge as it asks from now on. */
    private void onAckFrequency(AckFrequencyFrame a) throws QuicException {
        requireAckFrequencySupport(a);
        // a max_ack_delay of 2^14 ms or more is invalid as a transport parameter (RFC 9000 §18.2): requests cap there
        long delay = Math.min(a.requestMaxAckDelay(), MAX_REQUESTED_ACK_DELAY_MICROS) * 1000;
        if (delay < config.minAckDelay()) {
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, a.type(), "ACK_FREQUENCY requests a max ack delay of "
                    + a.requestMaxAckDelay() + " us, below our min_ack_delay (draft-ietf-quic-ack-frequency §4)");
        }
        spaces[PacketSpace.APPLICATION.ordinal()].received.onAckFrequency(a.sequenceNumber(), a.ackElicitingThreshold(),
                delay, a.reorderingThreshold());
    }

    /** ACK frequency frames from a peer we did not announce min_ack_delay to are frames we do not know. */
    private void requireAckFrequencySupport(Frame f) throws QuicException {
        if (config.minAckDelay() < 0) {
            throw new QuicException(TransportError.FRAME_ENCODING_ERROR, f.type(), FrameType.name(f.type())
                    + " frame, but we did not announce min_ack_delay (draft-ietf-quic-ack-frequency §3)");
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
            if (flow.onConsumed(Math.max(0, r.finalSize() - readBefore))) {
                pending.maxData = true;
            }
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
        if (stream.onStopSending(s.errorCode())) {
            pending.resetStream.add(stream.id);
        }
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
        if (stream.onMaxStreamData(m.max())) {
            pending.streamDataBlocked.remove(stream.id);
            if (stream.hasDataToSend()) {
                streams.markSendable(stream);
            }
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
        if (ack.largestAcknowledged() >= spaces[space.ordinal()].nextPacketNumber()) {
            // RFC 9000 §13.1: acknowledging a packet never sent
            throw new QuicException(TransportError.PROTOCOL_VIOLATION, ack.type(),
                    "ACK for packet " + ack.largestAcknowledged() + " which was never sent");
        }
        long ackDelay = space == PacketSpace.APPLICATION ? (ack.ackDelay() << peerAckDelayExponent) * 1000L : 0;
        if (isClient && space == PacketSpace.HANDSHAKE) {
            // RFC 9002 §A.6: an acknowledged Handshake packet shows that the server validated our address
            peerValidatedOurAddress = true;
        }
        LossDetector.AckResult r = recovery.onAck(space, ack.ranges(), ackDelay, handshakeStatus(), now);
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
                case AckFrame a -> spaces[p.space.ordinal()].received.onAckAcknowledged(a.largestAcknowledged());
                case AckFrequencyFrame a -> {
                    // draft-ietf-quic-ack-frequency §7: the requested delay counts for the PTO once acknowledged
                    if (ackFrequency.isLatest(a)) {
                        recovery.setPeerMaxAckDelay(a.requestMaxAckDelay() * 1000);
                    }
                }
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
            requeueFrames(p);
            ecn.onLost(p.space, List.of(p.packetNumber));
            if (p.space != PacketSpace.APPLICATION && p.ackEliciting) {
                // RFC 9002 §7.3.2: on entering recovery a packet may be sent at once. Lost handshake data goes out as
                // such a probe: a full window of 1-RTT data the peer cannot acknowledge before the handshake
                // completes must not hold back the CRYPTO data it needs to complete it.
                spaces[p.space.ordinal()].requestProbes(1);
            }
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
    private void requeueFrames(SentPacket p) {
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
                case CryptoDataSent c -> requeueCrypto(c);
                case AckFrame ignored -> spaces[p.space.ordinal()].received.onAckLost();
                default -> pending.requeue(f);
            }
        }
    }

    private void requeueCrypto(CryptoDataSent c) {
        if (keys.hasTx(c.level())) {
            tls.outgoing(c.level()).onLost(c.offset(), c.length(), false);
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
    private void requeueUnackedCrypto(PacketNumberSpace pns) {
        for (SentPacket sp : pns.unackedAckEliciting()) {
            for (Frame f : sp.frames) {
                if (f instanceof CryptoDataSent c) {
                    requeueCrypto(c);
                }
            }
        }
    }

    private void maybeForget(QuicStream s) {
        if (s.isFinished()) {
            if (streams.remove(s)) {
                pending.maxStreams(org.pacelab.quic.stream.StreamId.isBidirectional(s.id));
            }
            readable.remove(s.id);
            pending.forgetStream(s.id);
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
            if (canProcess(level)) {
                decryptAndProcess(b, p, level, now);
            } else if (level != EncryptionLevel.ZERO_RTT || !handshakeComplete) {
                undecryptable.add(packet);
            }
        }
    }

    /**
     * Whether packets of a level can be processed now: its keys are there, and a server has completed the
     * handshake before it processes 1-RTT packets (RFC 9001 §5.7); until then they wait with the packets
     * whose keys are missing.
     */
    private boolean canProcess(EncryptionLevel level) {
        return keys.hasRx(level) && (isClient || handshakeComplete || level != EncryptionLevel.ONE_RTT);
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
            requeueFrames(sp);
        }
        // RFC 9000 §17.2.5.3: 0-RTT packets sent before the Retry are sent again (the server dropped them)
        for (SentPacket sp : recovery.loss().removeAll(PacketSpace.APPLICATION)) {
            requeueFrames(sp);
        }
        // RFC 9002 §6.3: a Retry resets loss recovery's timers, the PTO backoff too: the server answered, so the
        // Initials sent before were not lost to a dead path. Kept, the backoff of a client that waited for a busy
        // server would space its Initials with the token tens of seconds apart, past the token's lifetime.
        recovery.loss().keepPtoBackoff(0);
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
            if (level == EncryptionLevel.ZERO_RTT) {
                keys.installZeroRtt(suite, clientSecret);
                return;
            }
            keys.install(level, suite, clientSecret, serverSecret);
            if (level == EncryptionLevel.ONE_RTT && isClient && keys.hasTx(EncryptionLevel.ZERO_RTT)) {
                endEarlyData();
            }
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
                pending.handshakeDone = true;
                confirmHandshakeNow = true;
            }
            pending.newConnectionIds.addAll(localCids.issueUpTo(peerActiveCidLimit()));
            if (!connectedReported) {
                connectedReported = true;
                // first: a server's application may have 0-RTT stream events waiting (dispatchAppEvents)
                appEvents.addFirst(() -> app.onConnected(QuicConnection.this));
            }
        }
    }

    private boolean confirmHandshakeNow;

    /**
     * Client: 0-RTT (RFC 9001 §4.6.1). The application starts now and its first stream data leaves in 0-RTT packets,
     * within the flow control and stream limits the server announced in the connection the ticket came from (RFC 9000
     * §7.4.1).
     */
    private void startEarlyData() {
        TransportParameters remembered;
        try {
            remembered = TransportParameters.decode(config.tls().resumption().serverTransportParameters(), true);
        } catch (QuicException e) {
            keys.discard(EncryptionLevel.ZERO_RTT); // a ticket from elsewhere: no 0-RTT without its limits
            return;
        }
        streams.setPeerLimits(remembered.initialMaxStreamDataBidiLocal(), remembered.initialMaxStreamDataBidiRemote(),
                remembered.initialMaxStreamDataUni(), remembered.initialMaxStreamsBidi(), remembered.initialMaxStreamsUni());
        flow.setPeerMaxData(remembered.initialMaxData());
        connectedReported = true;
        appEvents.add(() -> app.onConnected(QuicConnection.this));
        dispatchAppEvents();
    }

    /**
     * Client: 1-RTT keys are here, so 0-RTT ends (RFC 9001 §4.9.3). When the server rejected it, every 0-RTT packet is
     * lost to it: their stream data goes again in 1-RTT packets (RFC 9001 §4.6.2; the streams are kept, not reset —
     * the server accepted the same ALPN and its new transport parameters now apply).
     */
    private void endEarlyData() {
        keys.discard(EncryptionLevel.ZERO_RTT);
        if (!tls.earlyDataAccepted()) {
            earlyDataRejected = true;
            for (SentPacket sp : recovery.loss().removeAll(PacketSpace.APPLICATION)) {
                requeueFrames(sp);
            }
        }
    }

    private boolean earlyDataRejected;

    /** Client: whether this connection offered 0-RTT data and the server accepted it. */
    public boolean earlyDataAccepted() {
        return tls.offersEarlyData() && tls.earlyDataAccepted();
    }

    /** Client: whether the server rejected the 0-RTT data this connection sent (it was sent again in 1-RTT). */
    public boolean earlyDataRejected() {
        return earlyDataRejected;
    }

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
        recovery.setPeerMaxAckDelay(tp.maxAckDelay() * 1_000_000L);
        ackFrequency.onPeerTransportParameters(tp.minAckDelay(), tp.maxAckDelay() * 1_000_000L);
        peerAckDelayExponent = (int) tp.ackDelayExponent();
        int before = maxDatagramSize();
        peerMaxUdpPayload = tp.maxUdpPayloadSize();
        if (maxDatagramSize() != before) {
            recovery.onMaxDatagramSizeChanged(maxDatagramSize());
        }
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
        spaces[level.space().ordinal()].cancelProbes();
    }

    private boolean spaceDiscarded(PacketSpace space) {
        return spaces[space.ordinal()].isDiscarded();
    }

    private boolean probesToSend() {
        for (PacketNumberSpace s : spaces) {
            if (s.probesToSend() > 0) {
                return true;
            }
        }
        return false;
    }

    // =============================================================================================
    // Sending
    // =============================================================================================

    /** Largest datagram we send: our configured size, within the peer's max_udp_payload_size. */
    public int maxDatagramSize() {
        return (int) Math.min(config.maxUdpPayloadSize(), peerMaxUdpPayload);
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
        room = (int) Math.min(room, path.allowance());
        if (room < MIN_PACKET_ROOM) {
            return SendResult.NOTHING;
        }
        if (path.challengeDue() && state == State.ESTABLISHED) {
            // RFC 9000 §8.2.1, §9.3: the first packet on the new path carries the challenge; like a PTO probe it goes at
            // once, whatever the congestion window and the pacer
            pathChallenge = new PathChallengeFrame(path.takeChallenge(now, recovery.rtt().ptoBase()));
            spaces[PacketSpace.APPLICATION.ordinal()].requestProbes(1);
        }
        if (state == State.CLOSING) {
            return sendClose(out, room, now);
        }
        boolean probing = probesToSend();
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
        List<PacketBuilder> built = new ArrayList<>(3);
        boolean needsPadding = false;
        for (EncryptionLevel level : SEND_ORDER) {
            int remaining = start + room - out.position();
            if (remaining < MIN_PACKET_ROOM || !keys.hasTx(level)) {
                continue;
            }
            PacketBuilder b = buildPacket(level, out, remaining, mayElicit, now);
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
            if (!elicitingWaiting && recovery.congestionWindowRoom() >= maxDatagramSize()) {
                recovery.setAppLimited(now, true);
            }
            return SendResult.NOTHING;
        }
        if (needsPadding) {
            padInitialDatagram(out, start, room, built);
        }
        boolean anyEliciting = false;
        for (PacketBuilder b : built) {
            int size = b.seal(out, keys.tx(b.level));
            record(b, size, intended, now);
            anyEliciting |= b.ackEliciting();
        }
        int length = out.position() - start;
        bytesSent += length;
        path.onSent(length);
        if (anyEliciting) {
            recovery.setAppLimited(now, false);
        }
        return new SendResult(length, anyEliciting ? intended : now, 0);
    }

    /** The packets of a datagram, in the order RFC 9000 §12.2 coalesces them. */
    private static final EncryptionLevel[] SEND_ORDER = {EncryptionLevel.INITIAL, EncryptionLevel.ZERO_RTT,
            EncryptionLevel.HANDSHAKE, EncryptionLevel.ONE_RTT};

    /** RFC 9000 §14.1: a datagram carrying an Initial packet is at least 1200 bytes; its last packet is padded. */
    private static void padInitialDatagram(ByteBuffer out, int start, int room, List<PacketBuilder> built) {
        int size = out.position() - start;
        int target = Math.min(ConnectionConfig.MIN_INITIAL_SIZE, room);
        if (size < target) {
            built.get(built.size() - 1).padFinished(out, target - size);
        }
    }

    /** Starts a packet of {@code level} at the buffer's position, with the space's next packet number. */
    private PacketBuilder startPacket(ByteBuffer out, EncryptionLevel level, int room, int expectedFrames) {
        PacketNumberSpace pns = spaces[level.space().ordinal()];
        PacketBuilder.Header header = new PacketBuilder.Header(version, peerCids.current(), initialScid,
                isClient ? token : EMPTY, keys.keyPhase() == 1);
        return PacketBuilder.start(out, level, pns.nextPacketNumber(), pns.largestAcked(), header, room, expectedFrames);
    }

    /** Builds one packet's header and plaintext payload at the buffer's position; null if nothing to send. */
    private PacketBuilder buildPacket(EncryptionLevel level, ByteBuffer out, int room, boolean mayElicit, long now) {
        PacketNumberSpace pns = spaces[level.space().ordinal()];
        AckTracker tracker = pns.received;
        // 0-RTT packets carry no ACK frames (RFC 9000 §12.5); 1-RTT ones acknowledge the application space
        boolean ackDue = level != EncryptionLevel.ZERO_RTT && tracker.ackDue(now) && tracker.hasReceived();
        boolean probe = pns.probesToSend() > 0;
        boolean elicit = mayElicit || probe;
        SendBuffer crypto = tls.outgoing(level);
        if (isClient && probe && level.space() != PacketSpace.APPLICATION && !crypto.hasDataToSend(Long.MAX_VALUE)) {
            requeueUnackedCrypto(pns);
        }
        boolean hasCrypto = crypto.hasDataToSend(Long.MAX_VALUE);
        boolean hasApp = (level == EncryptionLevel.ONE_RTT && handshakeComplete || level == EncryptionLevel.ZERO_RTT)
                && appDataWaiting();
        if (!ackDue && !probe && !(elicit && (hasCrypto || hasApp))) {
            return null;
        }
        PacketBuilder b = startPacket(out, level, room, 4);
        // ACK first, piggybacked whenever there is anything new to acknowledge
        if (level != EncryptionLevel.ZERO_RTT && tracker.hasNewAcks() && tracker.hasReceived()) {
            AckFrame ack = tracker.buildAck(now, level == EncryptionLevel.ONE_RTT ? config.ackDelayExponent() : 0);
            if (FrameCodec.encodedLength(ack) <= b.remaining()) {
                b.write(ack);
                tracker.onAckSent();
            }
        }
        if (elicit) {
            writeCrypto(level, crypto, b);
            if (level == EncryptionLevel.ONE_RTT && handshakeComplete) {
                writeApplicationFrames(b, now);
            } else if (level == EncryptionLevel.ZERO_RTT) {
                writeStreams(b); // the application's first requests, before the handshake completes
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
        if (b.isEmpty()) {
            b.abandon(out);
            return null;
        }
        b.finish(out);
        return b;
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
            org.pacelab.quic.wire.VarInt.write(payload, piece.offset());
            org.pacelab.quic.wire.VarInt.write(payload, piece.length());
            crypto.copy(piece.offset(), piece.length(), payload);
            b.record(new CryptoDataSent(level, piece.offset(), piece.length()));
        }
    }

    private boolean appDataWaiting() {
        if (!pending.isEmpty()) {
            return true;
        }
        for (QuicStream s : streams.sendQueue()) {
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
        return (handshakeComplete || keys.hasTx(EncryptionLevel.ZERO_RTT)) && appDataWaiting();
    }

    private boolean anyAckDue(long now) {
        for (EncryptionLevel level : SENT_LEVELS) {
            AckTracker t = spaces[level.space().ordinal()].received;
            if (keys.hasTx(level) && t.ackDue(now) && t.hasReceived()) {
                return true;
            }
        }
        return false;
    }

    private void writeApplicationFrames(PacketBuilder b, long now) {
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
        if (pending.maxData && b.remaining() >= 9) {
            b.write(new MaxDataFrame(flow.maxDataUpdate(now, recovery.rtt().smoothedRtt())));
            pending.maxData = false;
        }
        for (var it = pending.maxStreamData.iterator(); it.hasNext() && b.remaining() >= 17; ) {
            long id = it.next();
            it.remove();
            QuicStream s = streams.get(id);
            if (s != null && s.canReceive()) {
                b.write(new MaxStreamDataFrame(id, s.receiveWindow().update(now, recovery.rtt().smoothedRtt())));
            }
        }
        for (boolean bidi : new boolean[] {true, false}) {
            if ((bidi ? pending.maxStreamsBidi : pending.maxStreamsUni) && b.remaining() >= 9) {
                b.write(new MaxStreamsFrame(bidi, streams.advertiseMaxStreams(bidi)));
                if (bidi) {
                    pending.maxStreamsBidi = false;
                } else {
                    pending.maxStreamsUni = false;
                }
            }
            if ((bidi ? pending.streamsBlockedBidi : pending.streamsBlockedUni) && b.remaining() >= 9) {
                b.write(new StreamsBlockedFrame(bidi, streams.peerMaxStreams(bidi)));
                pending.streamsBlocked(bidi, false);
            }
        }
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
        if (pending.dataBlocked && b.remaining() >= 9) {
            b.write(new DataBlockedFrame(flow.peerMaxData()));
            pending.dataBlocked = false;
        }
        for (var it = pending.resetStream.iterator(); it.hasNext() && b.remaining() >= 25; ) {
            QuicStream s = streams.get(it.next());
            it.remove();
            if (s != null && s.resetUnacknowledged()) {
                b.write(new ResetStreamFrame(s.id, s.resetCode(), s.resetFinalSize()));
            }
        }
        for (var it = pending.stopSending.iterator(); it.hasNext() && b.remaining() >= 17; ) {
            QuicStream s = streams.get(it.next());
            it.remove();
            if (s != null && s.peerMaySend()) {
                b.write(new StopSendingFrame(s.id, s.stopSendingCode()));
                s.stopSendingSent();
            }
        }
        for (var it = pending.streamDataBlocked.iterator(); it.hasNext() && b.remaining() >= 17; ) {
            QuicStream s = streams.get(it.next());
            it.remove();
            if (s != null) {
                b.write(new StreamDataBlockedFrame(s.id, s.sendLimit()));
            }
        }
        writeAckFrequency(b, now);
        boolean wroteData = writeStreams(b);
        int slack = b.remaining();
        if (wroteData && ackFrequency.active() && streams.sendQueue().isEmpty() && slack >= 1) {
            // the last data before the sender runs dry: acknowledged at once, not after the ACK ratio or delay the
            // peer was asked for (draft-ietf-quic-ack-frequency §9.1)
            b.write(ImmediateAckFrame.INSTANCE);
            slack--;
        }
        if (wroteData && slack > 0 && slack <= MAX_STREAM_HEADER) {
            // too little room for another STREAM frame (the header came out shorter than its bound, or a
            // retransmitted range was shorter than the room): pad, so that every full datagram has the same size —
            // UDP GSO cuts a buffer into equal segments (RFC 9000 §19.1 PADDING)
            b.pad(slack);
        }
    }

    /** An ACK_FREQUENCY frame when the request to the peer changes, or a lost one is due again. */
    private void writeAckFrequency(PacketBuilder b, long now) {
        if (pending.lostAckFrequency >= 0) {
            ackFrequency.onLost(pending.lostAckFrequency);
            pending.lostAckFrequency = -1;
        }
        if (b.remaining() < MAX_ACK_FREQUENCY_FRAME) {
            return;
        }
        AckFrequencyFrame f = ackFrequency.next(now, recovery.congestionController().congestionWindow(), maxDatagramSize(),
                recovery.rtt(), recovery.congestionController().inSlowStart());
        if (f != null) {
            b.write(f);
            // §7: until it is acknowledged, the PTO allows for the larger of the old and the requested delay
            recovery.setPeerMaxAckDelay(Math.max(recovery.peerMaxAckDelay(), f.requestMaxAckDelay() * 1000));
        }
    }

    /**
     * Stream frames, round-robin over streams with something to send (one frame per stream per turn); returns
     * whether any stream data was written.
     */
    private boolean writeStreams(PacketBuilder b) {
        ByteBuffer payload = b.payload();
        ArrayDeque<QuicStream> queue = streams.sendQueue();
        int turns = queue.size();
        boolean wroteData = false;
        while (turns-- > 0 && payload.remaining() > MAX_STREAM_HEADER && !queue.isEmpty()) {
            QuicStream s = queue.pollFirst();
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
                    b.record(new StreamDataSent(s.id, piece.offset(), piece.length(), piece.fin()));
                    wroteData = true;
                    if (!piece.retransmission()) {
                        flow.onNewDataSent(piece.length());
                    }
                    if (piece.fin()) {
                        s.onFinSent();
                    }
                } else {
                    if (s.noteFlowBlocked()) {
                        pending.streamDataBlocked.add(s.id);
                    }
                    if (flow.sendCredit() == 0 && flow.noteBlocked()) {
                        pending.dataBlocked = true;
                    }
                }
            }
            if (s.hasDataToSend() && (flow.sendCredit() > 0 || s.sendBuffer().hasLost())) {
                queue.addLast(s);
            } else if (s.hasDataToSend() && flow.noteBlocked()) {
                // blocked by connection flow control: wait for MAX_DATA (requeueBlockedStreams)
                pending.dataBlocked = true;
            }
        }
        return wroteData;
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
        ecn.onSent(space, b.packetNumber, txEcn != 0);
        if (level == EncryptionLevel.ONE_RTT) {
            keys.onPacketSent(b.packetNumber);
            packetsSentInKeyPhase++;
        }
        if (qlog.enabled()) {
            qlog.packetSent(now, level.packetType(), b.packetNumber, size, sp.intendedSendTime, b.frames());
        }
        if (isClient && level == EncryptionLevel.HANDSHAKE) {
            // RFC 9001 §4.9.1: a client discards Initial keys when it first sends a Handshake packet
            discardLevel(EncryptionLevel.INITIAL, now);
        }
        if (eliciting) {
            // RFC 9000 §10.1: sending an ack-eliciting packet restarts the idle timer if nothing was sent
            // since the last received packet
            resetIdleTimerOnSend(now);
        }
    }

    /** The CONNECTION_CLOSE datagram (RFC 9000 §10.2): one close packet per level the peer may be able to read. */
    private SendResult sendClose(ByteBuffer out, int room, long now) {
        if (!closePacketPending) {
            return SendResult.NOTHING;
        }
        closePacketPending = false;
        int start = out.position();
        List<PacketBuilder> built = new ArrayList<>(3);
        for (EncryptionLevel level : SENT_LEVELS) {
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
            PacketBuilder b = startPacket(out, level, remaining, 1);
            if (FrameCodec.encodedLength(f) > b.remaining()) {
                f = new ConnectionCloseFrame(f.application(), f.errorCode(), f.frameType(), "");
            }
            b.write(f);
            b.finish(out);
            built.add(b);
        }
        if (built.isEmpty()) {
            out.position(start);
            return SendResult.NOTHING;
        }
        if (isClient && built.get(0).level == EncryptionLevel.INITIAL) {
            padInitialDatagram(out, start, room, built);
        }
        for (PacketBuilder b : built) {
            int size = b.seal(out, keys.tx(b.level));
            spaces[b.level.space().ordinal()].takePacketNumber();
            if (qlog.enabled()) {
                qlog.packetSent(now, b.level.packetType(), b.packetNumber, size, now, b.frames());
            }
        }
        int length = out.position() - start;
        bytesSent += length;
        path.onSent(length);
        if (closeDeadline == Long.MAX_VALUE) {
            closeDeadline = now + 3 * recovery.rtt().ptoBase();
        }
        return new SendResult(length, now, 0);
    }

    /**
     * A key update every {@link ConnectionConfig#keyUpdateInterval()} 1-RTT packets sent and received in the phase (as
     * quic-go counts): a downloading client sends few packets, ACKs only, so an interval in packets sent may never come.
     */
    private void maybeInitiateKeyUpdate(long now) {
        if (config.keyUpdateInterval() > 0 && handshakeConfirmed
                && packetsSentInKeyPhase + keys.packetsReceivedInPhase() >= config.keyUpdateInterval()
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
        t = Math.min(t, recovery.lossDetectionTimer(handshakeStatus()));
        long ackDeadline = spaces[PacketSpace.APPLICATION.ordinal()].received.ackDeadline();
        if (ackDeadline != Long.MIN_VALUE) {
            t = Math.min(t, ackDeadline);
        }
        t = Math.min(t, keys.previousKeysDiscardTime());
        t = Math.min(t, path.timer());
        return t;
    }

    /** What recovery needs to know of the handshake to arm its timer (RFC 9002 §A.6, §A.8). */
    private Recovery.HandshakeStatus handshakeStatus() {
        boolean atAmplificationLimit = !isClient && !addressValidated && 3 * bytesReceived <= bytesSent;
        boolean peerCompletedValidation = !isClient || peerValidatedOurAddress || handshakeConfirmed;
        return new Recovery.HandshakeStatus(isClient, keys.hasTx(EncryptionLevel.HANDSHAKE), handshakeConfirmed,
                peerCompletedValidation, atAmplificationLimit);
    }

    /**
     * The datagram just {@link #receive received} came from a new peer address (RFC 9000 §9.3: a NAT rebinding or the
     * peer's migration). Returns whether the connection now sends to that address: only when the datagram held a
     * non-probing packet with the largest packet number so far, once the handshake is confirmed (§9; a server confirms
     * it on completion, so a client rebound during the handshake is followed from the datagram that completes it). Then the new
     * path is validated (§8.2): the next packet carries a PATH_CHALLENGE, and until a PATH_RESPONSE answers it at most
     * three times what arrived on the path is sent on it. The connection ID stays (§9.5 allows it for a rebinding).
     * Once validated, a new address (not only a new port, {@code onlyPortChanged}) gets a fresh congestion controller
     * and RTT estimator (§9.4); a NAT that changed only the port keeps the path's state, as §9.4 allows.
     */
    public boolean onPeerAddressChanged(long now, boolean onlyPortChanged) {
        // a server's handshake is confirmed when it completes (RFC 9001 §4.1.2), possibly by this very datagram
        boolean confirmed = isClient ? handshakeConfirmed : handshakeComplete;
        if (!datagramMovesPath || !confirmed || state != State.ESTABLISHED) {
            return false;
        }
        newPathNeedsFreshState = !onlyPortChanged;
        path.start(now, recovery.rtt().ptoBase());
        // the datagram that moved the path counts toward what may be sent on it
        path.onReceived(lastDatagramSize);
        return true;
    }

    /** RFC 9000 §9.4: the validated new path starts with the initial congestion and RTT state. */
    private void resetForNewPath(long now) {
        newPathNeedsFreshState = false;
        pathResets++;
        recovery.resetForNewPath(CongestionControllers.create(config.congestion(), maxDatagramSize(), random), now);
    }

    /** Whether the path the connection sends on is being validated (RFC 9000 §8.2). */
    public boolean isPathValidating() {
        return path.validating();
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
        if (now >= path.timer()) {
            path.onTimeout(now, recovery.rtt().ptoBase());
        }
        Recovery.HandshakeStatus hs = handshakeStatus();
        if (now >= recovery.lossDetectionTimer(hs)) {
            Recovery.Timeout timeout = recovery.onLossDetectionTimeout(hs, now);
            handleLost(timeout.lost(), now);
            for (SentPacket p : timeout.resend()) {
                requeueFrames(p);
            }
        }
        dispatchAppEvents();
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
        if (!connectedReported) {
            // a server's application never saw this connection: no events about its 0-RTT streams
            appEvents.clear();
            readable.clear();
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
        if (!isClient && !connectedReported && !closedReported) {
            // streams a client opened in 0-RTT wait for the handshake: the application hears onConnected first
            return;
        }
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
    public String applicationProtocol() {
        String p = tls.applicationProtocol();
        // RFC 8446 §4.2.10: 0-RTT data uses the ticket's protocol, the first one the client offers
        return p == null && tls.offersEarlyData() ? config.tls().applicationProtocols().get(0) : p;
    }

    /** Streams carry data once established, and on a client sending 0-RTT data before that. */
    private boolean streamsUsable() {
        return state == State.ESTABLISHED || state == State.HANDSHAKE && connectedReported;
    }

    @Override
    public long openStream(boolean bidirectional) {
        if (!streamsUsable()) {
            return -1;
        }
        QuicStream s = streams.open(bidirectional);
        if (s == null) {
            pending.streamsBlocked(bidirectional, true);
            return -1;
        }
        return s.id;
    }

    @Override
    public int write(long streamId, ByteBuffer data, boolean fin) {
        QuicStream s = streams.get(streamId);
        if (s == null || !s.canSend() || !streamsUsable()) {
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
            if (flow.onConsumed(n)) {
                pending.maxData = true;
            }
            if (s.windowUpdateNeeded()) {
                pending.maxStreamData.add(streamId);
            }
        }
        maybeForget(s);
        return n;
    }

    @Override
    public void resetStream(long streamId, long applicationErrorCode) {
        QuicStream s = streams.get(streamId);
        if (s != null) {
            if (s.reset(applicationErrorCode)) {
                pending.resetStream.add(streamId);
            }
        }
    }

    @Override
    public void stopSending(long streamId, long applicationErrorCode) {
        QuicStream s = streams.get(streamId);
        if (s != null) {
            if (s.stopSending(applicationErrorCode)) {
                pending.stopSending.add(streamId);
            }
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
    long takePacketNumber(PacketSpace space) { return spaces[space.ordinal()].takePacketNumber(); }

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
        m.put("path_validations_started", path.started());
        m.put("path_validations_succeeded", path.validated());
        m.put("path_validations_failed", path.failed());
        m.put("path_challenges_sent", path.challengesSent());
        m.put("path_congestion_resets", pathResets);
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
        if (tp.minAckDelay() >= 0) {
            m.put("min_ack_delay", tp.minAckDelay());
        }
        if (tp.initialSourceConnectionId() != null) {
            m.put("initial_source_connection_id", tp.initialSourceConnectionId());
        }
        if (tp.originalDestinationConnectionId() != null) {
            m.put("original_destination_connection_id", tp.originalDestinationConnectionId());
        }
        return m;
    }
}
