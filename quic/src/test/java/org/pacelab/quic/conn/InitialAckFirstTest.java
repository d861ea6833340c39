package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.tls.TlsConfig;

/**
 * {@link InitialAckFirst}: the server acknowledges the client's first Initial before TLS processes the ClientHello
 * (RFC 9000 §13.2.1), in a datagram of its own that counts against the anti-amplification limit (§8.1), so the
 * client's first RTT sample (RFC 9002 §5.3) does not include the time the server's TLS step takes.
 */
class InitialAckFirstTest {
    private static final List<String> ALPN = List.of("hq-interop");
    private static final long MS = 1_000_000L;

    @Test
    void theServerAcknowledgesTheClientsFirstInitialBeforeItsTlsFlightAndCountsThatDatagram() throws Exception {
        FrameLog serverLog = new FrameLog();
        TestCertificates.Identity id = TestCertificates.rsa();
        // six certificates: the flight is far larger than three times the ClientHello's datagram
        ConnectionConfig serverConfig = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false)
                .withTls(TlsConfig.server(ALPN, TlsConfig.ALL_SUITES, Collections.nCopies(6, id.certificate()), id.key()))
                .withQlog(odcid -> serverLog);
        ConnectionConfig clientConfig = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true);
        StatelessResetTokens tokens = new StatelessResetTokens(new byte[32]);
        long t0 = 1_000 * MS;
        long oneWay = 15 * MS;
        QuicConnection client = QuicConnection.client(clientConfig, new EchoApps.Client(new byte[1]),
                new SplittableRandom(1), tokens, ConnectionPair.noCids(), t0);
        List<byte[]> hello = ConnectionPair.datagrams(client, t0);
        assertEquals(1, hello.size(), "the ClientHello fits one datagram");
        long arrival = t0 + oneWay;
        QuicConnection server = ConnectionPair.serverFor(serverConfig, tokens, hello.get(0), arrival);
        server.receive(ByteBuffer.wrap(hello.get(0)), arrival);

        // first output: one Initial packet with nothing but the ACK, not padded (not ack-eliciting, RFC 9000 §14.1)
        List<byte[]> ack = ConnectionPair.datagrams(server, arrival);
        assertEquals(1, ack.size(), "one datagram before the TLS step");
        List<Frame> ackFrames = serverLog.takeDatagram();
        assertEquals(List.of(PacketType.INITIAL), serverLog.sentTypes);
        assertEquals(1, ackFrames.size(), "frames: " + ackFrames);
        assertTrue(ackFrames.get(0) instanceof AckFrame, "frames: " + ackFrames);
        assertTrue(ack.get(0).length < ConnectionConfig.MIN_INITIAL_SIZE, "an ACK-only datagram of " + ack.get(0).length + " bytes");
        // TLS has not seen the ClientHello: no Handshake keys yet, and the step is due at once
        assertFalse(server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE));
        assertEquals(arrival, server.nextTimeout());
        assertEquals((long) ack.get(0).length, server.counters().get("bytes_sent"));

        // the runtime's next turn, here 80 ms later (a slow host): TLS runs, and the flight follows
        long tlsTurn = arrival + 80 * MS;
        server.onTimeout(tlsTurn);
        List<byte[]> flight = ConnectionPair.datagrams(server, tlsTurn);
        assertFalse(flight.isEmpty());
        List<Frame> flightFrames = serverLog.takeDatagram();
        assertTrue(flightFrames.stream().anyMatch(f -> f instanceof CryptoDataSent), "frames: " + flightFrames);
        assertTrue(server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE));
        int flightBytes = flight.stream().mapToInt(d -> d.length).sum();
        int received = hello.get(0).length;
        // RFC 9000 §8.1: the ACK's datagram came out of the same three-times budget as the flight
        assertEquals((long) ack.get(0).length + flightBytes, server.counters().get("bytes_sent"));
        assertTrue(ack.get(0).length + flightBytes <= 3 * received,
                "sent " + ack.get(0).length + " + " + flightBytes + " bytes for " + received);
        assertTrue(flightBytes > 3 * received - ack.get(0).length - 64,
                "the flight stopped short of the limit: " + flightBytes + " bytes for " + received);

        // the client's first RTT sample is the path's round trip, not the round trip plus the server's TLS step
        client.receive(ByteBuffer.wrap(ack.get(0)), arrival + oneWay);
        assertEquals(2 * oneWay, client.recovery().rtt().latestRtt());
        for (byte[] d : flight) {
            client.receive(ByteBuffer.wrap(d), tlsTurn + oneWay);
        }
        assertEquals(2 * oneWay, client.recovery().rtt().smoothedRtt());
        assertEquals(2 * oneWay, client.recovery().rtt().minRtt());
    }

    /**
     * A send that builds no datagram — here the caller's buffer has room for no packet; RFC 9000 §8.1's limit or a closing
     * connection stop a send the same way — has not sent the ACK, so the held ClientHello stays held: a driver that
     * serves its timers before sending again does not run the TLS step, and the next send still builds the ACK-only
     * Initial first (RFC 9000 §13.2.1).
     */
    @Test
    void aSendThatBuildsNoDatagramLeavesTheClientHelloHeldForTheAck() throws Exception {
        FrameLog serverLog = new FrameLog();
        ConnectionConfig serverConfig = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog);
        StatelessResetTokens tokens = new StatelessResetTokens(new byte[32]);
        long t0 = 1_000 * MS;
        QuicConnection client = QuicConnection.client(ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true),
                new EchoApps.Client(new byte[1]), new SplittableRandom(1), tokens, ConnectionPair.noCids(), t0);
        List<byte[]> hello = ConnectionPair.datagrams(client, t0);
        long arrival = t0 + 15 * MS;
        QuicConnection server = ConnectionPair.serverFor(serverConfig, tokens, hello.get(0), arrival);
        server.receive(ByteBuffer.wrap(hello.get(0)), arrival);
        long due = server.nextTimeout();

        assertFalse(server.send(ByteBuffer.allocate(48), arrival).wrote(), "48 bytes hold no packet");
        assertTrue(serverLog.takeDatagram().isEmpty());
        assertEquals(due, server.nextTimeout(), "the TLS step became due without the ACK");
        if (server.nextTimeout() <= arrival) {
            server.onTimeout(arrival);
        }
        assertFalse(server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE), "TLS ran before the ACK left");

        List<byte[]> ack = ConnectionPair.datagrams(server, arrival);
        List<Frame> frames = serverLog.takeDatagram();
        assertEquals(1, ack.size());
        assertTrue(frames.size() == 1 && frames.get(0) instanceof AckFrame, "first datagram: " + frames);
        assertEquals(arrival, server.nextTimeout(), "once the ACK is built, the TLS step is due");
        server.onTimeout(arrival);
        assertTrue(server.keySchedule().hasTx(EncryptionLevel.HANDSHAKE));
    }

    @Test
    void withTheAckFirstTheHandshakeAndAnEchoComplete() throws Exception {
        EchoApps.Client client = new EchoApps.Client("ping".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        FrameLog serverLog = new FrameLog();
        ConnectionConfig serverConfig = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), serverConfig,
                ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true), 10 * MS, 5);
        List<List<Frame>> serverDatagrams = new ArrayList<>();
        pair.toClientFilter = d -> {
            serverDatagrams.add(serverLog.takeDatagram());
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(client::done, 5_000 * MS), "echo did not complete");
        assertTrue(serverDatagrams.size() >= 2);
        List<Frame> first = serverDatagrams.get(0);
        assertTrue(first.size() == 1 && first.get(0) instanceof AckFrame, "first server datagram: " + first);
        assertTrue(serverDatagrams.get(1).stream().anyMatch(f -> f instanceof CryptoDataSent),
                "second server datagram: " + serverDatagrams.get(1));
        assertEquals(20 * MS, pair.client.recovery().rtt().minRtt());
    }
}
