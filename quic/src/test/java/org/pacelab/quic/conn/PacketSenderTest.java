package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.QuicVersion;
import org.pacelab.quic.qlog.QlogSink;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.recovery.PacketNumberSpace;
import org.pacelab.quic.recovery.Recovery;
import org.pacelab.quic.recovery.RttEstimator;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.tls.KeyLogSink;
import org.pacelab.quic.tls.TlsConfig;
import org.pacelab.quic.tls.TlsHandshake;

/**
 * The send pipeline on its own, wired to the parts a connection gives it: what a datagram holds, its size, the
 * anti-amplification limit and the closing state's CONNECTION_CLOSE (RFC 9000 §8.1, §10.2, §14.1), read from the qlog
 * events of the packets sent and the bytes written.
 */
class PacketSenderTest {
    private static final long NOW = 1_000_000_000L;
    private static final int MAX_DATAGRAM = 1452;

    private record Sent(PacketType type, long packetNumber, int length, long intendedSendTime, List<Frame> frames) {}

    /** A connection's parts at the start of its handshake, as {@link QuicConnection} wires them. */
    private static final class Side {
        final List<Sent> sent = new ArrayList<>();
        final KeySchedule keys;
        final PacketNumberSpace[] spaces;
        final Recovery recovery;
        final TlsHandshake tls;
        final AmplificationLimit amplification;
        final ConnectionClose close = new ConnectionClose();
        final PacketSender sender;

        Side(boolean isClient) {
            ConnectionConfig config = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, isClient);
            QlogSink qlog = new QlogSink() {
                @Override
                public boolean enabled() { return true; }

                @Override
                public void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime,
                                       List<Frame> frames) {
                    sent.add(new Sent(type, packetNumber, length, intendedSendTime, List.copyOf(frames)));
                }
            };
            SplittableRandom random = new SplittableRandom(1);
            byte[] scid = {1, 2, 3, 4, 5, 6, 7, 8};
            byte[] dcid = {9, 10, 11, 12, 13, 14, 15, 16};
            keys = new KeySchedule(isClient);
            keys.installInitial(isClient ? dcid : scid);
            VersionNegotiation versions = new VersionNegotiation(isClient, config.versions(), QuicVersion.V1, keys);
            LocalConnectionIds localCids = new LocalConnectionIds(scid, random, new StatelessResetTokens(new byte[32]),
                    ConnectionPair.noCids());
            PeerConnectionIds peerCids = new PeerConnectionIds(dcid, config.activeConnectionIdLimit());
            HandshakeConnectionIds handshakeIds = new HandshakeConnectionIds(isClient, isClient ? dcid : scid,
                    isClient ? null : dcid);
            spaces = PacketNumberSpace.all(config.ackElicitingThreshold(), config.maxAckDelay());
            recovery = new Recovery(new RttEstimator(config.initialRtt()), spaces,
                    org.pacelab.quic.recovery.CongestionSetup.create(config.congestion().controller(),
                            config.congestion().pacing(), MAX_DATAGRAM, random),
                    qlog);
            EcnValidator ecn = new EcnValidator(false);
            PendingFrames pending = new PendingFrames();
            EchoApps.Server app = new EchoApps.Server();
            ConnectionStreams streams = new ConnectionStreams(isClient, config.streams(), pending, app,
                    new ApplicationEvents(app));
            AckFrequencySender ackFrequency = new AckFrequencySender(0);
            byte[] localParameters = (isClient ? LocalTransportParameters.client(config, QuicVersion.V1, scid)
                    : LocalTransportParameters.server(config, QuicVersion.V1, scid, scid, null, new byte[16], null)).encode();
            TlsHandshake.Listener ignore = new TlsHandshake.Listener() {
                @Override
                public void onSecrets(EncryptionLevel level, CipherSuite suite, byte[] client, byte[] server) { }

                @Override
                public void onPeerTransportParameters(byte[] encoded) { }

                @Override
                public void onHandshakeComplete() { }
            };
            tls = isClient ? TlsHandshake.client(config.tls(), localParameters, ignore, KeyLogSink.NONE)
                    : TlsHandshake.server(config.tls(), localParameters, ignore, KeyLogSink.NONE);
            amplification = new AmplificationLimit(isClient);
            HandshakeProgress handshake = new HandshakeProgress(isClient, keys, spaces, recovery, amplification,
                    tls.outgoing(EncryptionLevel.INITIAL));
            SentPacketFate fate = new SentPacketFate(streams, tls, keys, spaces, pending, ackFrequency, recovery, ecn);
            PacketPopulator populator = new PacketPopulator(isClient, config.ackDelayExponent(), spaces, keys, tls,
                    streams, pending, localCids, ackFrequency, recovery, fate);
            PathValidator path = new PathValidator(random);
            ConnectionPaths paths = new ConnectionPaths(isClient, random, qlog, peerCids, pending, recovery, false);
            sender = new PacketSender(isClient, config.pacingLookahead(), versions, keys, spaces, peerCids, scid,
                    handshakeIds, handshake, populator, recovery, ecn, amplification, path, paths, close,
                    new InitialAckFirst(false), new IdleTimer(config.idleTimeout(), NOW), qlog);
        }

        SendResult send(QuicConnection.State state, long now) {
            return sender.send(ByteBuffer.allocate(65536), state, MAX_DATAGRAM, now);
        }
    }

    private static Side startedClient() throws QuicException {
        Side c = new Side(true);
        c.tls.start();
        c.sender.onInput(NOW);
        return c;
    }

    @Test
    void aClientsFirstDatagramIsItsClientHelloInAnInitialPaddedTo1200BytesAndInFlight() throws QuicException {
        Side c = startedClient();
        SendResult r = c.send(QuicConnection.State.HANDSHAKE, NOW);

        // RFC 9000 §14.1: a client's datagram with an Initial packet is at least 1200 bytes
        assertTrue(r.length() >= 1200 && r.length() <= MAX_DATAGRAM, "length " + r.length());
        assertEquals(NOW, r.intendedSendTime());
        assertEquals(1, c.sent.size());
        Sent initial = c.sent.get(0);
        assertEquals(PacketType.INITIAL, initial.type());
        assertEquals(0, initial.packetNumber());
        assertEquals(r.length(), initial.length(), "one packet fills the datagram");
        CryptoDataSent hello = assertInstanceOf(CryptoDataSent.class, initial.frames().get(0));
        assertEquals(0, hello.offset());
        assertEquals(c.tls.outgoing(EncryptionLevel.INITIAL).writeOffset(), hello.length(), "the whole ClientHello");
        // the packet is in flight, its number taken, the bytes counted
        assertEquals(r.length(), c.recovery.bytesInFlight());
        assertEquals(1, c.spaces[PacketSpace.INITIAL.ordinal()].nextPacketNumber());
        assertEquals(1, c.sender.packetsSent());
        assertEquals(r.length(), c.amplification.sent());

        // nothing more waits: nothing is written
        SendResult again = c.send(QuicConnection.State.HANDSHAKE, NOW + 1);
        assertFalse(again.wrote());
        assertFalse(again.isBlockedByPacer());
        assertEquals(1, c.sent.size());
    }

    @Test
    void aServerSendsAtMostThreeTimesWhatArrivedUntilTheClientsAddressIsValidated() {
        Side s = new Side(false);
        // the client's first Initial arrived: it is acknowledged at once (RFC 9000 §13.2.1)
        s.spaces[PacketSpace.INITIAL.ordinal()].received.onPacketReceived(0, true, NOW);
        s.sender.onInput(NOW);

        // RFC 9000 §8.1: nothing has been received as far as the limit knows, so nothing may be sent
        assertFalse(s.send(QuicConnection.State.HANDSHAKE, NOW).wrote());
        assertTrue(s.sent.isEmpty());

        s.amplification.onReceived(30);
        SendResult r = s.send(QuicConnection.State.HANDSHAKE, NOW);
        assertTrue(r.wrote());
        assertTrue(r.length() <= 90, "within 3 x 30 bytes: " + r.length());
        assertEquals(1, s.sent.size());
        assertEquals(PacketType.INITIAL, s.sent.get(0).type());
        assertInstanceOf(AckFrame.class, s.sent.get(0).frames().get(0));
        assertEquals(1, s.sent.get(0).frames().size(), "an ACK only, not padded (RFC 9000 §14.1)");
        assertEquals(0, s.recovery.bytesInFlight(), "an ACK-only packet is not in flight");
        assertEquals(r.length(), s.amplification.sent());
    }

    @Test
    void theClosingStateSendsOneConnectionCloseAndAnotherOnlyWhenAPacketArrivesAgain() throws QuicException {
        Side c = startedClient();
        c.send(QuicConnection.State.HANDSHAKE, NOW);
        long ptoBase = c.recovery.rtt().ptoBase();
        c.close.closing(ConnectionClose.applicationClose(7, "bye"), Long.MAX_VALUE);

        long at = NOW + 5_000_000L;
        SendResult r = c.send(QuicConnection.State.CLOSING, at);
        assertTrue(r.length() >= 1200, "a client's Initial datagram is padded: " + r.length());
        Sent closePacket = c.sent.get(1);
        assertEquals(PacketType.INITIAL, closePacket.type());
        assertEquals(1, closePacket.packetNumber());
        // RFC 9000 §10.2.3: before the handshake completes the application's close goes as a transport close
        ConnectionCloseFrame f = assertInstanceOf(ConnectionCloseFrame.class, closePacket.frames().get(0));
        assertFalse(f.application());
        assertEquals(TransportError.APPLICATION_ERROR.code, f.errorCode());
        // the closing period starts when the frame left: three PTOs (§10.2)
        assertEquals(at + 3 * ptoBase, c.close.deadline());
        assertEquals(1, c.sender.packetsSent(), "a CONNECTION_CLOSE packet is not counted as sent data");

        assertFalse(c.send(QuicConnection.State.CLOSING, at + 1).wrote(), "once, until a packet arrives");
        c.close.onPacketWhileClosing();
        assertTrue(c.send(QuicConnection.State.CLOSING, at + 2).wrote());
        assertEquals(3, c.sent.size());
        assertSame(PacketType.INITIAL, c.sent.get(2).type());
        assertEquals(at + 3 * ptoBase, c.close.deadline(), "the period is not extended");
    }
}
