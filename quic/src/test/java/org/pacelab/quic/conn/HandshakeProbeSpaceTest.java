package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.PingFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.tls.TlsConfig;

/**
 * What pacelab's server sends again while its Initial data (the ServerHello) is unacknowledged, from the interop
 * runner's handshakecorruption against gtlsclient (ngtcp2 0.12.1; `InteropCasesNgtcp2Test`): the server's first flight
 * and its first probe were corrupted, every Initial ACK of the client too, and the server sent its ServerHello again at
 * 1, 5 and 21 s, because its PTOs alternated between the Initial and the Handshake space and a Handshake probe (its
 * certificate again, which a client without the ServerHello cannot read) carried no Initial data, and an Initial
 * probe's Handshake packet was a bare PING. The handshake took 21 s of the case's 30 s idle timeout in two of 700
 * connections. Here, end to end: every probe carries the ServerHello and the Handshake data (and so does the server's
 * answer to the client's PING probes, {@code ClientInitialProbeTest}). Which space a PTO probes
 * is {@code RecoveryTimerTest}'s (the pair sends a probe's datagrams at one instant, so the two spaces' PTOs tie here
 * and the Initial space's comes first even without the rule).
 */
class HandshakeProbeSpaceTest {
    private static final long MS = 1_000_000L;
    private static final long ONE_WAY = 15 * MS;

    private static boolean carriesCrypto(List<Frame> frames, EncryptionLevel level) {
        return frames.stream().anyMatch(f -> f instanceof CryptoDataSent c && c.level() == level);
    }

    private static ConnectionPair pair(FrameLog serverLog, FrameLog clientLog, ConnectionConfig.Builder client,
                                       EchoApps.Client app) {
        List<String> alpn = List.of("hq-interop");
        ConnectionConfig serverConfig = ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, false)
                .withQlog(odcid -> serverLog);
        ConnectionConfig clientConfig = client.qlog(odcid -> clientLog).build();
        return new ConnectionPair(app, new EchoApps.Server(), serverConfig, clientConfig, ONE_WAY, 16);
    }

    private static ConnectionConfig.Builder clientConfig() {
        return ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).toBuilder();
    }

    private static byte[] message() {
        byte[] msg = new byte[1000];
        new Random(6).nextBytes(msg);
        return msg;
    }

    @Test
    void everyPtoOfTheServerSendsItsServerHelloAgainWithItsHandshakeDataWhileTheServerHelloIsUnacknowledged()
            throws Exception {
        FrameLog serverLog = new FrameLog();
        FrameLog clientLog = new FrameLog();
        byte[] msg = message();
        EchoApps.Client app = new EchoApps.Client(msg);
        ConnectionPair pair = pair(serverLog, clientLog, clientConfig(), app);
        List<Long> serverHelloTimes = new ArrayList<>();
        List<Boolean> serverHelloWithHandshakeData = new ArrayList<>();
        List<Long> clientPingArrivals = new ArrayList<>();
        int[] handshakeDataWithoutServerHello = {0};
        int[] clientInitials = {0};
        long start = pair.now;
        long lossUntil = start + 7_000 * MS;
        pair.toClientFilter = d -> {
            List<Frame> frames = serverLog.takeDatagram();
            boolean hello = carriesCrypto(frames, EncryptionLevel.INITIAL);
            if (hello) {
                serverHelloTimes.add(pair.now);
                serverHelloWithHandshakeData.add(carriesCrypto(frames, EncryptionLevel.HANDSHAKE));
            } else if (carriesCrypto(frames, EncryptionLevel.HANDSHAKE) && pair.now < lossUntil) {
                handshakeDataWithoutServerHello[0]++;
            }
            // every ServerHello of the first 7 s is corrupted on the link
            return hello && pair.now < lossUntil ? null : d;
        };
        pair.toServerFilter = d -> {
            List<Frame> frames = clientLog.takeDatagram();
            if (carriesCrypto(frames, EncryptionLevel.INITIAL)) {
                // the ClientHello arrives once; its copies are lost (so no early retransmission, RFC 9002 §6.2.3)
                return clientInitials[0]++ == 0 ? d : null;
            }
            if (frames.stream().anyMatch(f -> f instanceof AckFrame) && pair.now < lossUntil) {
                // the client's Initial ACKs are lost, so the server never learns that its ServerHello was: only its
                // PTO, or its answer to a PING (ClientInitialProbeTest), sends it again
                return null;
            }
            if (frames.stream().anyMatch(f -> f instanceof PingFrame)) {
                // the client's PING probes arrive
                clientPingArrivals.add(pair.now + ONE_WAY);
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(app::done, 60_000 * MS), "client " + pair.client.state() + " "
                + pair.client.closeReason() + ", ServerHello sent at " + serverHelloTimes);
        assertArrayEquals(msg, app.replies[0]);
        // the copies not sent at a PING's arrival (RFC 9002 §6.2.3) are the server's PTO probes (§6.2.4): at least two
        List<Long> ptoCopies = serverHelloTimes.stream().skip(1)
                .filter(t -> t < lossUntil && !clientPingArrivals.contains(t)).toList();
        assertTrue(ptoCopies.size() >= 2, "ServerHello sent at " + serverHelloTimes + ", PINGs arrived at "
                + clientPingArrivals);
        // each copy, by the PTO or not, carries the Handshake data with it (RFC 9002 §6.2.4), and no probe sends
        // Handshake data alone
        assertTrue(serverHelloWithHandshakeData.stream().allMatch(b -> b), "with Handshake data: "
                + serverHelloWithHandshakeData + ", ServerHello sent at " + serverHelloTimes);
        assertEquals(0, handshakeDataWithoutServerHello[0]);
    }

    @Test
    void aRepeatedClientHelloMakesTheServerSendItsServerHelloAgainAtOnce() throws Exception {
        FrameLog serverLog = new FrameLog();
        FrameLog clientLog = new FrameLog();
        byte[] msg = message();
        EchoApps.Client app = new EchoApps.Client(msg);
        // the client's first PTO (3 × 100 ms) comes well before the server's (3 × 333 ms, RFC 9002 §6.2.2)
        ConnectionPair pair = pair(serverLog, clientLog, clientConfig().initialRtt(100 * MS), app);
        List<Long> serverHelloTimes = new ArrayList<>();
        List<Long> clientHelloArrivals = new ArrayList<>();
        int[] serverInitials = {0};
        pair.toClientFilter = d -> {
            List<Frame> frames = serverLog.takeDatagram();
            if (carriesCrypto(frames, EncryptionLevel.INITIAL)) {
                serverHelloTimes.add(pair.now);
            }
            // the server's first two Initial datagrams (its ACK of the ClientHello, its ServerHello) are lost
            return serverInitials[0]++ < 2 ? null : d;
        };
        pair.toServerFilter = d -> {
            if (carriesCrypto(clientLog.takeDatagram(), EncryptionLevel.INITIAL)) {
                clientHelloArrivals.add(pair.now + ONE_WAY);
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(app::done, 60_000 * MS), "client " + pair.client.state() + " "
                + pair.client.closeReason() + ", ServerHello sent at " + serverHelloTimes);
        assertArrayEquals(msg, app.replies[0]);
        assertTrue(clientHelloArrivals.size() >= 2, "ClientHello copies: " + clientHelloArrivals);
        // the second ServerHello leaves when the ClientHello's copy arrives, not at the server's PTO a second later
        assertEquals(clientHelloArrivals.get(1), serverHelloTimes.get(1), 5.0 * MS,
                "ClientHello arrivals " + clientHelloArrivals + ", ServerHello sent at " + serverHelloTimes);
        assertTrue(serverHelloTimes.get(1) - serverHelloTimes.get(0) < 500 * MS, "ServerHello sent at " + serverHelloTimes);
    }
}
