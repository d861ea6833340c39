package org.pacelab.quic.conn;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.TransportParameters;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.frame.CryptoFrame;
import org.pacelab.quic.frame.NewConnectionIdFrame;
import org.pacelab.quic.frame.RetireConnectionIdFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.CongestionSetup;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.RttEstimator;
import org.pacelab.quic.recovery.SentPacket;
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

    private final boolean isClient;
    private final ConnectionConfig config;
    /** The version packets are sent in and its negotiation (RFC 9368). */
    private final VersionNegotiation versions;
    private final ApplicationHandler app;
    private final RandomGenerator random;
    /** Validation of the path the peer moved to (RFC 9000 §8.2, §9.3). */
    private final PathValidator path;
    private final QlogSink qlog;

    private final KeySchedule keys;
    private final TlsHandshake tls;
    private final LocalConnectionIds localCids;
    private final PeerConnectionIds peerCids;
    private final byte[] originalDcid;
    private final byte[] initialScid;
    private final byte[] retryScid;
    /** A server's stateless reset token for its first connection ID (RFC 9000 §10.3), announced in its transport parameters. */
    private final byte[] resetTokenAnnounced;
    /** The handshake's connection IDs, a Retry's token, their authentication (RFC 9000 §7.3). */
    private final HandshakeConnectionIds handshakeIds;

    /** Initial, Handshake and application data, indexed by {@link PacketSpace#ordinal()}. */
    private final PacketNumberSpace[] spaces;
    private final Recovery recovery;
    private final EcnValidator ecn;
    /** Streams, their flow control and the stream frames (quinn's {@code StreamsState}). */
    private final ConnectionStreams streams;

    /** Control frames waiting to be sent, new or lost (stream and CRYPTO data wait in their send buffers). */
    private final PendingFrames pending = new PendingFrames();
    /** What we ask the peer about acknowledging (draft-ietf-quic-ack-frequency). */
    private final AckFrequencySender ackFrequency;

    private TransportParameters peerParams;
    private int peerAckDelayExponent = 3;
    private long peerMaxUdpPayload = 65527;

    private State state = State.HANDSHAKE;
    /** Handshake complete and confirmed, the Initial and Handshake keys discarded (RFC 9001 §4.1, §4.9). */
    private final HandshakeProgress handshake;
    private boolean connectedReported;
    /** RFC 9000 §8.1: what a server may send before the client's address is validated; the bytes sent. */
    private final AmplificationLimit amplification;
    private final IdleTimer idleTimer;
    private final ResponseKeepAlive keepAlive;
    private final ConnectionClose close = new ConnectionClose();
    /** What becomes of a sent packet once acknowledged or lost (RFC 9000 §13.3, §13.4.2). */
    private final SentPacketFate fate;
    /** What goes into each packet (quinn's populate_packet). */
    private final PacketPopulator populator;
    /** Received datagrams to the frames of each packet (quinn's handle_packet, ngtcp2's read path). */
    private final PacketReceiver receiver;
    /** A client's 0-RTT (RFC 9001 §4.6). */
    private final EarlyData earlyData;
    /** Server: the client's first Initial acknowledged before TLS processes its ClientHello (RFC 9000 §13.2.1). */
    private final InitialAckFirst ackFirst;
    /** Whether the path being validated is a new address, whose validation resets congestion and RTT state (§9.4). */
    private boolean newPathNeedsFreshState;
    private long pathResets;
    /** The path the connection sends on and another being probed (RFC 9000 §9). */
    private final ConnectionPaths paths;
    /** Server: the preferred_address this connection offers (RFC 9000 §18.2), with its connection ID of sequence 1; or null. */
    private final TransportParameters.PreferredAddress preferredAddressOffered;

    private final ApplicationEvents appEvents;

    /** Datagrams written (RFC 9000 §12.2 coalescing, pacing, the close and path-probe datagrams). */
    private final PacketSender sender;
    /** The time of the latest input (a datagram or a timer). */
    private long lastNow;

    private QuicConnection(boolean isClient, ConnectionConfig config, ApplicationHandler app, RandomGenerator random,
                           StatelessResetTokens resetTokens, LocalConnectionIds.Listener cidListener,
                           byte[] localCid, byte[] peerCid, byte[] originalDcid, byte[] retryScid, int version, long now) {
        this.isClient = isClient;
        this.config = config;
        this.app = app;
        this.random = random;
        this.path = new PathValidator(random);
        this.originalDcid = originalDcid.clone();
        this.initialScid = localCid.clone();
        this.retryScid = retryScid;
        this.handshakeIds = new HandshakeConnectionIds(isClient, this.originalDcid, isClient ? null : peerCid.clone());
        this.qlog = config.qlog().apply(originalDcid);
        this.keys = new KeySchedule(isClient);
        this.versions = new VersionNegotiation(isClient, config.versions(), version, keys);
        this.localCids = new LocalConnectionIds(localCid, random, resetTokens, cidListener);
        this.peerCids = new PeerConnectionIds(peerCid, config.activeConnectionIdLimit());
        this.spaces = PacketNumberSpace.all(config.ackElicitingThreshold(), config.maxAckDelay());
        int mds = maxDatagramSize();
        RttEstimator rtt = new RttEstimator(config.initialRtt());
        this.recovery = new Recovery(rtt, spaces, congestionSetup(mds), qlog);
        this.ecn = new EcnValidator(config.ecn());
        this.appEvents = new ApplicationEvents(app);
        this.streams = new ConnectionStreams(isClient, config.streams(), pending, app, appEvents);
        this.ackFrequency = new AckFrequencySender(config.maxAckRatio());
        this.resetTokenAnnounced = isClient ? null : resetTokens.tokenFor(initialScid);
        this.preferredAddressOffered = isClient || config.preferredAddress() == null ? null : offerPreferredAddress();
        this.paths = new ConnectionPaths(isClient, random, qlog, peerCids, pending, recovery, preferredAddressOffered != null);
        TransportParameters local = localTransportParameters();
        TlsHandshake.Listener tlsListener = new TlsListener();
        this.tls = isClient ? TlsHandshake.client(config.tls(), local.encode(), tlsListener, config.keyLog())
                : TlsHandshake.server(config.tls(), local.encode(), tlsListener, config.keyLog());
        // the client derives Initial keys from the DCID it chose, the server from the DCID the client used
        keys.installInitial(isClient ? originalDcid : (retryScid != null ? retryScid : originalDcid));
        this.idleTimer = new IdleTimer(config.idleTimeout(), now);
        // RFC 9000 §8.1: a token from our Retry validates the client's address
        this.amplification = new AmplificationLimit(isClient || retryScid != null);
        this.handshake = new HandshakeProgress(isClient, keys, spaces, recovery, amplification,
                tls.outgoing(EncryptionLevel.INITIAL));
        this.fate = new SentPacketFate(streams, tls, keys, spaces, pending, ackFrequency, recovery, ecn);
        this.populator = new PacketPopulator(isClient, config.ackDelayExponent(), spaces, keys, tls, streams, pending,
                localCids, ackFrequency, recovery, fate);
        this.keepAlive = new ResponseKeepAlive(isClient, streams, recovery, spaces[PacketSpace.APPLICATION.ordinal()], now);
        this.earlyData = new EarlyData(config, keys, tls, streams, recovery, fate);
        // the ACK goes out in the client's version: only when the ClientHello's version_information cannot switch us to
        // another (we prefer the client's Original Version, RFC 9368 §4) — the client follows the first version it hears
        this.ackFirst = new InitialAckFirst(!isClient && config.versions().get(0) == version);
        FrameReceiver frames = new FrameReceiver(isClient, config.minAckDelay(), qlog, streams, pending, path,
                spaces[PacketSpace.APPLICATION.ordinal()].received, new ConnectionFrames());
        this.sender = new PacketSender(isClient, config.pacingLookahead(), versions, keys, spaces, peerCids, initialScid,
                handshakeIds, handshake, populator, recovery, ecn, amplification, path, paths, close, ackFirst, idleTimer,
                qlog);
        this.receiver = new PacketReceiver(isClient, this.originalDcid, initialScid, versions, handshakeIds, localCids,
                peerCids, keys, spaces, frames, amplification, path, idleTimer, keepAlive, recovery, close, qlog,
                new ConnectionPackets());
        if (qlog.enabled()) {
            qlog.connectionStarted(now, "", "", localCid, peerCid);
            qlog.parametersSet(now, true, local.qlogFields());
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
                config.clientOriginalVersion(), now);
        c.tls.start();
        c.sender.onInput(now);
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
        return c;
    }

    private TransportParameters localTransportParameters() {
        return isClient ? LocalTransportParameters.client(config, versions.current(), initialScid)
                : LocalTransportParameters.server(config, versions.current(), initialScid, originalDcid, retryScid, resetTokenAnnounced,
                preferredAddressOffered);
    }

    /** RFC 9000 §5.1.1, §18.2: the preferred address is offered with the connection ID of sequence number 1 and its token. */
    private TransportParameters.PreferredAddress offerPreferredAddress() {
        NewConnectionIdFrame id = localCids.issueForPreferredAddress();
        return config.preferredAddress().parameter(id.connectionId(), id.statelessResetToken());
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
        if (state == State.CLOSED) {
            return;
        }
        markInput(now);
        receiver.receive(datagram, ecn, now);
    }

    /**
     * {@link #receiveInBurst(ByteBuffer, int, long)} of a datagram that arrived on {@code path} (RFC 9000 §9): the
     * connection answers a PATH_CHALLENGE on the path it came on (§8.2.2), follows a peer's new address (§9.3) and,
     * as a server, validates a path a client opened to its preferred address (§9.6.2). The first path a server's
     * connection hears of is the one it sends on.
     */
    public void receiveInBurst(ByteBuffer datagram, int ecn, NetworkPath path, long now) {
        if (state == State.CLOSED) {
            return;
        }
        markInput(now);
        int size = datagram.remaining();
        paths.beforeDatagram(path, !isClient && handshake.complete() && state == State.ESTABLISHED);
        long authenticatedBefore = receiver.packetsReceived();
        receiver.receive(datagram, ecn, now);
        boolean authenticated = receiver.packetsReceived() > authenticatedBefore;
        boolean onProbe = paths.afterPackets(size, authenticated, state == State.ESTABLISHED, now);
        afterDatagramOn(path, onProbe, now);
    }

    /** {@link #receiveInBurst(ByteBuffer, int, NetworkPath, long)} as a burst of one. */
    public void receive(ByteBuffer datagram, int ecn, NetworkPath path, long now) {
        receiveInBurst(datagram, ecn, path, now);
        endReceiveBurst();
    }

    /** What a datagram on {@code path} changes about the paths, once its packets are processed. */
    private void afterDatagramOn(NetworkPath path, boolean onProbe, long now) {
        if (onProbe && !isClient && receiver.datagramMovesPath()) {
            paths.onNonProbingOnProbe();
        } else if (!onProbe && !isClient && paths.isNewPeerAddress(path)
                && onPeerAddressChanged(now, path.samePeerHost(paths.current()))) {
            // RFC 9000 §9.3: the client's largest non-probing packet came from a new address (a NAT rebinding or its
            // migration): send there, while the new path is validated
            paths.followPeer(path);
        }
        paths.completeProbe(now, () -> resetForNewPath(now));
    }

    /**
     * Ends a burst of {@link #receiveInBurst} calls: the application is told what the burst brought (streams
     * readable, opened, reset, the handshake done, the connection closed). The runtime then calls {@link #send}.
     */
    public void endReceiveBurst() {
        dispatchAppEvents();
    }

    /** What only the connection can do about a received packet. */
    private final class ConnectionPackets implements PacketReceiver.Handler {
        @Override
        public State state() { return state; }

        @Override
        public boolean handshakeComplete() { return handshake.complete(); }

        @Override
        public boolean handshakeConfirmed() { return handshake.confirmed(); }

        @Override
        public void onNoCommonVersion(int[] offered, long now) {
            closeSilently(now, TransportError.CONNECTION_REFUSED.code, "server supports none of our versions: "
                    + Arrays.toString(offered));
        }

        @Override
        public void onRetry(ParsedPacket retry) {
            acceptRetry(retry);
        }

        @Override
        public void onStatelessReset(long now) {
            // RFC 9000 §10.3.1: the connection is over; no further packets are sent
            state = State.DRAINING;
            close.draining(now);
            reportClosed(0, false, "stateless reset", false, now);
        }

        @Override
        public void onPeerKeyUpdate(long now) {
            updateKeys(now, "remote_update");
        }

        @Override
        public void onClientHandshakePacket(long now) {
            handshake.onHandshakePacketReceived(now);
        }

        @Override
        public void onClientInitialProbe(long now) {
            if (state == State.HANDSHAKE) {
                // the client may lack our Initial data: it goes again now, unless a copy of it left less than a PTO
                // ago (RFC 9002 §6.2.3)
                recovery.onClientInitialProbe(handshake.status(), now).forEach(fate::sendAgain);
            }
        }

        @Override
        public void onError(QuicException e, long now) {
            closeWithError(e, now);
        }

        @Override
        public void onNoRoomForPacketAwaitingKeys(long now) throws QuicException {
            if (ackFirst.holding() && state == State.HANDSHAKE) {
                // more 0-RTT packets came with the ClientHello than wait for keys (RFC 9001 §4.1.4): rather than drop
                // them, TLS runs now and the ACK leaves with the flight (RFC 9000 §13.2.1 as without InitialAckFirst)
                ackFirst.release((level, c) -> toTls(level, c, now));
            }
        }
    }

    /** The frames of a packet that only the connection can act on. */
    private final class ConnectionFrames implements FrameReceiver.Handler {
        @Override
        public void onAck(EncryptionLevel level, AckFrame ack, long now) throws QuicException {
            PacketSpace space = level.space();
            if (space == PacketSpace.HANDSHAKE) {
                handshake.onHandshakeAcked();
            }
            fate.onAckFrame(space, ack, peerAckDelayExponent, handshake.status(), now);
        }

        @Override
        public void onCrypto(EncryptionLevel level, CryptoFrame c, long now) throws QuicException {
            if (!ackFirst.hold(level, c)) {
                toTls(level, c, now);
            }
        }

        @Override
        public void onNewConnectionId(NewConnectionIdFrame n) throws QuicException {
            pending.retireConnectionIds.addAll(peerCids.onNewConnectionId(n, handshakeIds.peerUsesZeroLengthCid()));
        }

        @Override
        public void onRetireConnectionId(RetireConnectionIdFrame r, byte[] packetDcid) throws QuicException {
            pending.newConnectionIds.addAll(localCids.onRetire(r.sequenceNumber(), packetDcid, peerActiveCidLimit()));
        }

        @Override
        public void onPathValidated(long now) {
            if (newPathNeedsFreshState) {
                resetForNewPath(now);
            }
        }

        @Override
        public void onPathChallenge(byte[] data) {
            paths.onPathChallenge(data);
        }

        @Override
        public void onOtherPathResponse(byte[] data, long now) {
            paths.onPathResponse(data, now);
        }

        @Override
        public void onConnectionClose(ConnectionCloseFrame c, long now) {
            onPeerClose(c, now);
        }

        @Override
        public void onHandshakeDone(long now) {
            confirmHandshake(now);
        }

        @Override
        public boolean stopped() {
            return state == State.DRAINING || state == State.CLOSED;
        }
    }

    /** CRYPTO data to TLS; the packets waiting for the keys it may produce are processed then. */
    private void toTls(EncryptionLevel level, CryptoFrame c, long now) throws QuicException {
        tls.receive(level == EncryptionLevel.ZERO_RTT ? EncryptionLevel.ONE_RTT : level, c.offset(), c.data());
        receiver.processPacketsAwaitingKeys(now);
    }

    /** The ECN codepoint of the datagram the last {@link #send} call wrote (RFC 3168: 0b10 ECT(0), 0 Not-ECT). */
    public int ecnCodepoint() {
        return sender.ecnCodepoint();
    }

    /** The sender's ECN state (RFC 9000 Appendix A.4) and why it failed, if it did. */
    public EcnValidator ecn() {
        return ecn;
    }

    /** Client: a Retry accepted (RFC 9000 §17.2.5.2): its connection ID and token, new Initial keys, all sent again. */
    private void acceptRetry(ParsedPacket p) {
        handshakeIds.onRetry(p.scid(), p.token());
        peerCids.replaceInitial(p.scid());
        keys.resetInitial(p.scid());
        // everything sent in Initial packets is sent again with the new keys (RFC 9002 §6.3)
        for (SentPacket sp : recovery.loss().removeAll(PacketSpace.INITIAL)) {
            fate.sendAgain(sp);
        }
        // RFC 9000 §17.2.5.3: 0-RTT packets sent before the Retry are sent again (the server dropped them)
        for (SentPacket sp : recovery.loss().removeAll(PacketSpace.APPLICATION)) {
            fate.sendAgain(sp);
        }
        // RFC 9002 §6.3: a Retry resets loss recovery's timers, the PTO backoff too: the server answered, so the
        // Initials sent before were not lost to a dead path. Kept, the backoff of a client that waited for a busy
        // server would space its Initials with the token tens of seconds apart, past the token's lifetime.
        recovery.loss().keepPtoBackoff(0);
    }

    private void onPeerClose(ConnectionCloseFrame c, long now) {
        if (state == State.DRAINING || state == State.CLOSED) {
            return;
        }
        // RFC 9000 §10.2.2: enter the draining state for three PTOs
        state = State.DRAINING;
        close.draining(now + 3 * recovery.rtt().ptoBase());
        reportClosed(c.errorCode(), c.application(), c.reason(), false, now);
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
                earlyData.end();
            }
        }

        @Override
        public void onPeerTransportParameters(byte[] encoded) throws QuicException {
            TransportParameters tp = TransportParameters.decode(encoded, isClient);
            if (versions.negotiate(tp.versionInformation())) {
                tls.setLocalTransportParameters(localTransportParameters().encode());
            }
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
            handshake.onComplete();
            state = State.ESTABLISHED;
            if (!isClient) {
                // RFC 9001 §4.1.2: the server confirms the handshake when it completes, and tells the client
                pending.handshakeDone = true;
            }
            pending.newConnectionIds.addAll(localCids.issueUpTo(peerActiveCidLimit()));
            if (!connectedReported) {
                connectedReported = true;
                // first: a server's application may have 0-RTT stream events waiting (dispatchAppEvents)
                appEvents.addFirst(() -> app.onConnected(QuicConnection.this));
            }
        }
    }

    /**
     * Client: 0-RTT (RFC 9001 §4.6.1). The application starts now and its first stream data leaves in 0-RTT packets,
     * within the flow control and stream limits the server announced in the connection the ticket came from (RFC 9000
     * §7.4.1).
     */
    private void startEarlyData() {
        if (earlyData.start()) {
            connectedReported = true;
            appEvents.add(() -> app.onConnected(QuicConnection.this));
            dispatchAppEvents();
        }
    }

    /** Client: whether this connection offered 0-RTT data and the server accepted it. */
    public boolean earlyDataAccepted() {
        return earlyData.accepted();
    }

    /** Client: whether the server rejected the 0-RTT data this connection sent (it was sent again in 1-RTT). */
    public boolean earlyDataRejected() {
        return earlyData.rejected();
    }

    /** The QUIC version this connection sends in (RFC 9000 §15, RFC 9369). */
    public int version() {
        return versions.current();
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
        handshakeIds.authenticate(tp);
        peerParams = tp;
        streams.onPeerTransportParameters(tp);
        recovery.setPeerMaxAckDelay(tp.maxAckDelay() * 1_000_000L);
        ackFrequency.onPeerTransportParameters(tp.minAckDelay(), tp.maxAckDelay() * 1_000_000L);
        peerAckDelayExponent = (int) tp.ackDelayExponent();
        int before = maxDatagramSize();
        peerMaxUdpPayload = tp.maxUdpPayloadSize();
        if (maxDatagramSize() != before) {
            recovery.onMaxDatagramSizeChanged(maxDatagramSize());
        }
        idleTimer.setPeerTimeout(tp.maxIdleTimeout() * 1_000_000L);
        if (tp.statelessResetToken() != null) {
            peerCids.setInitialResetToken(tp.statelessResetToken());
        }
        if (isClient && tp.preferredAddress() != null) {
            // RFC 9000 §5.1.1: the preferred address's connection ID is sequence number 1, its reset token valid from now
            peerCids.addPreferredAddressId(tp.preferredAddress().connectionId(), tp.preferredAddress().statelessResetToken());
        }
        if (qlog.enabled()) {
            qlog.parametersSet(lastNow, false, tp.qlogFields()); // the arrival of the datagram that carried them
        }
    }

    private int peerActiveCidLimit() {
        long peer = peerParams == null ? 2 : peerParams.activeConnectionIdLimit();
        return (int) Math.min(peer, config.activeConnectionIdLimit());
    }

    /** The handshake confirmed (RFC 9001 §4.1.2); a client then probes the server's preferred address (RFC 9000 §9.6). */
    private void confirmHandshake(long now) {
        if (handshake.confirm(now) && isClient) {
            paths.probePreferredAddress(config.usePreferredAddress() && peerParams != null ? peerParams.preferredAddress() : null,
                    now);
        }
    }

    // =============================================================================================
    // Paths (RFC 9000 §9)
    // =============================================================================================

    /**
     * The path the connection starts on (a client's runtime says it before sending; a server's connection takes the
     * path its first datagram came on). Only a connection that knows its path validates and moves to others.
     */
    public void setPath(NetworkPath path) {
        paths.start(path);
    }

    /** The path datagrams go on, or null when the runtime never said. */
    public NetworkPath path() {
        return paths.current();
    }

    /** Whether {@code address} is the peer's on the current path or on one being validated (a runtime's receive filter). */
    public boolean isPeerAddress(InetSocketAddress address) {
        return paths.isPeerAddress(address);
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
     * several encryption levels when useful ({@link PacketSender}).
     */
    public SendResult send(ByteBuffer out, long now) {
        if (state == State.CLOSED || state == State.DRAINING) {
            return SendResult.NOTHING;
        }
        if (handshake.takeConfirmationDue()) {
            confirmHandshake(now);
        }
        maybeInitiateKeyUpdate(now);
        return sender.send(out, state, maxDatagramSize(), now);
    }

    /**
     * RFC 9001 §6: a key update every {@link ConnectionConfig#keyUpdateInterval()} 1-RTT packets sent and received in
     * the phase (as quic-go counts): a downloading client sends few packets, ACKs only, so an interval in packets sent
     * may never come.
     */
    private void maybeInitiateKeyUpdate(long now) {
        if (config.keyUpdateInterval() > 0 && handshake.confirmed()
                && keys.packetsSentInPhase() + keys.packetsReceivedInPhase() >= config.keyUpdateInterval()
                && keys.canInitiateUpdate()) {
            updateKeys(now, "local_update");
        }
    }

    /** Initiates a 1-RTT key update now if RFC 9001 §6 allows it; returns whether it did. */
    public boolean initiateKeyUpdate(long now) {
        if (!handshake.confirmed() || !keys.canInitiateUpdate()) {
            return false;
        }
        updateKeys(now, "local_update");
        return true;
    }

    /** The next 1-RTT key generation (RFC 9001 §6.1); the previous receive keys are kept for three PTOs (§6.5). */
    private void updateKeys(long now, String trigger) {
        keys.update(now + 3 * recovery.rtt().ptoBase());
        if (qlog.enabled()) {
            qlog.keyUpdated(now, "1RTT", keys.generation(), trigger);
        }
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
            return close.deadline();
        }
        long t = idleTimer.deadline();
        t = Math.min(t, recovery.lossDetectionTimer(handshake.status()));
        long ackDeadline = spaces[PacketSpace.APPLICATION.ordinal()].received.ackDeadline();
        if (ackDeadline != Long.MIN_VALUE) {
            t = Math.min(t, ackDeadline);
        }
        t = Math.min(t, keys.previousKeysDiscardTime());
        t = Math.min(t, path.timer());
        t = Math.min(t, paths.timer());
        t = Math.min(t, ackFirst.deadline());
        return Math.min(t, keepAlive.deadline(handshake.confirmed()));
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
    boolean onPeerAddressChanged(long now, boolean onlyPortChanged) {
        // a server's handshake is confirmed when it completes (RFC 9001 §4.1.2), possibly by this very datagram
        boolean confirmed = isClient ? handshake.confirmed() : handshake.complete();
        if (!receiver.datagramMovesPath() || !confirmed || state != State.ESTABLISHED) {
            return false;
        }
        newPathNeedsFreshState = !onlyPortChanged;
        path.start(now, recovery.rtt().ptoBase(), recovery.peerMaxAckDelay());
        // the datagram that moved the path counts toward what may be sent on it
        path.onReceived(receiver.lastDatagramSize());
        return true;
    }

    /** RFC 9000 §9.4: the validated new path starts with the initial congestion and RTT state. */
    private void resetForNewPath(long now) {
        newPathNeedsFreshState = false;
        pathResets++;
        recovery.resetForNewPath(congestionSetup(maxDatagramSize()), now);
    }

    /** A new controller and pacer for a path of {@code maxDatagramSize}, each from its part of the configuration. */
    private CongestionSetup congestionSetup(int maxDatagramSize) {
        CongestionConfig c = config.congestion();
        return CongestionSetup.create(c.controller(), c.pacing(), maxDatagramSize, random);
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
        if ((state == State.CLOSING || state == State.DRAINING) && now >= close.deadline()) {
            state = State.CLOSED;
            qlog.close();
            dispatchAppEvents();
            return;
        }
        if (now >= idleTimer.deadline()) {
            // RFC 9000 §10.1: silently close after the idle timeout
            closeSilently(now, TransportError.NO_ERROR.code, "idle timeout");
            dispatchAppEvents();
            return;
        }
        if (now >= ackFirst.deadline() && state == State.HANDSHAKE) {
            // the ACK of the client's first Initial has left: now the ClientHello's processing
            try {
                ackFirst.release((level, c) -> toTls(level, c, now));
            } catch (QuicException e) {
                closeWithError(e, now);
                dispatchAppEvents();
                return;
            }
        }
        keys.onTimer(now);
        if (now >= path.timer()) {
            path.onTimeout(now, recovery.rtt().ptoBase(), recovery.peerMaxAckDelay());
        }
        paths.onTimeout(now);
        keepAlive.onTimeout(now, handshake.confirmed() && state == State.ESTABLISHED);
        Recovery.HandshakeStatus hs = handshake.status();
        if (now >= recovery.lossDetectionTimer(hs)) {
            Recovery.Timeout timeout = recovery.onLossDetectionTimeout(hs, now);
            fate.onLost(timeout.lost());
            for (SentPacket p : timeout.resend()) {
                fate.sendAgain(p);
            }
        }
        dispatchAppEvents();
    }

    private void markInput(long now) {
        lastNow = now;
        sender.onInput(now);
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
        state = State.CLOSING;
        close.closing(ConnectionClose.transportClose(e), now + 3 * recovery.rtt().ptoBase());
        reportClosed(e.errorCode(), false, e.getMessage(), true, now);
    }

    private void closeSilently(long now, long code, String reason) {
        state = State.CLOSED;
        reportClosed(code, false, reason, true, now);
        qlog.close();
    }

    private void reportClosed(long code, boolean application, String reason, boolean local, long now) {
        if (!close.report(code, application, reason, local)) {
            return;
        }
        if (qlog.enabled()) {
            qlog.connectionClosed(now, local, code, application, reason);
        }
        if (!connectedReported) {
            // a server's application never saw this connection: no events about its 0-RTT streams
            appEvents.clear();
        }
        String closeReason = close.reason();
        appEvents.close(() -> app.onClosed(code, application, closeReason));
    }

    private void dispatchAppEvents() {
        if (!isClient && !connectedReported && !close.reported()) {
            // streams a client opened in 0-RTT wait for the handshake: the application hears onConnected first
            return;
        }
        // application callbacks may queue more work (and more events); run until quiet
        appEvents.deliver(streams::isReadable);
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
        return streams.open(bidirectional);
    }

    @Override
    public int write(long streamId, ByteBuffer data, boolean fin) {
        return streamsUsable() ? streams.write(streamId, data, fin) : -1;
    }

    @Override
    public void finish(long streamId) {
        streams.finish(streamId);
    }

    @Override
    public int read(long streamId, ByteBuffer dst) {
        return streams.read(streamId, dst);
    }

    @Override
    public void resetStream(long streamId, long applicationErrorCode) {
        streams.reset(streamId, applicationErrorCode);
    }

    @Override
    public void stopSending(long streamId, long applicationErrorCode) {
        streams.stopSending(streamId, applicationErrorCode);
    }

    @Override
    public void close(long applicationErrorCode, String reason) {
        if (state == State.CLOSING || state == State.DRAINING || state == State.CLOSED) {
            return;
        }
        state = State.CLOSING;
        // the closing period starts when the CONNECTION_CLOSE leaves (PacketSender)
        close.closing(ConnectionClose.applicationClose(applicationErrorCode, reason), Long.MAX_VALUE);
        reportClosed(applicationErrorCode, true, reason, true, lastNow);
    }

    // =============================================================================================
    // Introspection
    // =============================================================================================

    public State state() { return state; }

    /** Test access: the stateless reset token this (server) connection announced. */
    byte[] statelessResetTokenForTest() { return resetTokenAnnounced; }

    PeerConnectionIds peerConnectionIdsForTest() { return peerCids; }

    /** Test access: the key schedule. */
    KeySchedule keySchedule() { return keys; }

    /** Test access: the peer's transport parameters, or null before they arrived. */
    TransportParameters peerTransportParameters() { return peerParams; }

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
        return state == State.CLOSED || state == State.DRAINING || state == State.CLOSING && !close.packetPending();
    }

    public boolean isHandshakeComplete() { return handshake.complete(); }

    public boolean isHandshakeConfirmed() { return handshake.confirmed(); }

    /** Server side: whether the client's address is validated (RFC 9000 §8.1: Retry token or a Handshake packet). */
    public boolean isAddressValidated() { return amplification.validated(); }

    public byte[] originalDestinationConnectionId() { return originalDcid.clone(); }

    public byte[] sourceConnectionId() { return initialScid.clone(); }

    public List<byte[]> localConnectionIds() { return localCids.all(); }

    public Recovery recovery() { return recovery; }

    public CipherSuite cipherSuite() { return tls.selectedSuite(); }

    /** Counters for reports: packets sent, received, dropped (undecryptable or malformed), declared lost. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("packets_sent", sender.packetsSent());
        m.put("packets_received", receiver.packetsReceived());
        m.put("packets_dropped", receiver.packetsDropped());
        m.put("packets_lost", fate.packetsLost());
        m.put("bytes_sent", amplification.sent());
        m.put("key_updates", keys.generation());
        m.put("path_validations_started", path.started());
        m.put("path_validations_succeeded", path.validated());
        m.put("path_validations_failed", path.failed());
        m.put("path_challenges_sent", path.challengesSent());
        m.put("path_congestion_resets", pathResets);
        m.put("migrations", paths.migrations());
        m.put("path_probes_failed", paths.probesFailed());
        m.put("keep_alive_probes", keepAlive.probesSent());
        return m;
    }

    /** The error that closed the connection (0 when clean or still open). */
    public long closeErrorCode() { return close.errorCode(); }

    public boolean closedByApplicationError() { return close.application(); }

    public String closeReason() { return close.reason(); }

    public boolean closedLocally() { return close.local(); }
}
