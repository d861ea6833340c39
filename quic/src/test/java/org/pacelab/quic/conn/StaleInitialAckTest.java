package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.stream.CryptoDataSent;
import org.pacelab.quic.tls.TlsConfig;

/**
 * handshakeloss pacelab → pacelab, the open defect of issue 16: the server's ACK of the client's first two Initials
 * was lost with the ServerHello data it rode on, and its PTO probes repeated that ACK; the one that got through,
 * seconds later, made the client's first RTT sample the whole wait (5.06 s in the runner, whose PTO was then 15 s:
 * RFC 9002 §5.3 lets the client ignore the ACK Delay of an Initial ACK and never subtracts it from a first sample). The client's Finished was
 * then lost at its first send, at the time threshold and in both copies of its PTO probe, and the server, its flight
 * acknowledged and nothing in flight, idled out before the client's next probe. RFC 9000 §13.3: "resending old ACK
 * frames can cause the peer to generate an inflated RTT sample"; ngtcp2 and quinn send an Initial or Handshake ACK
 * only for packets that arrived since their last one, and so does pacelab now.
 */
class StaleInitialAckTest {
    private static final long MS = 1_000_000L;
    private static final long ONE_WAY = 15 * MS;

    /** The packet types of a datagram's coalesced packets. */
    private static List<PacketType> types(byte[] d) {
        List<PacketType> types = new java.util.ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(d);
        int at = 0;
        try {
            while (at < d.length) {
                if ((d[at] & 0x80) == 0) {
                    types.add(PacketType.ONE_RTT);
                    break;
                }
                org.pacelab.quic.packet.ParsedPacket p = PacketParser.parse(b, at, 8);
                types.add(p.type());
                at = p.packetEnd();
            }
        } catch (Exception e) {
            throw new IllegalStateException("a datagram that does not parse", e);
        }
        return types;
    }

    private static boolean carriesCrypto(List<Frame> frames, EncryptionLevel level) {
        return frames.stream().anyMatch(f -> f instanceof CryptoDataSent c && c.level() == level);
    }

    @Test
    void theServersProbesDoNotRepeatItsOldInitialAckSoTheClientsFirstRttSampleIsThePathAndItsFinishedGetsThrough()
            throws Exception {
        FrameLog clientLog = new FrameLog();
        FrameLog serverLog = new FrameLog();
        List<String> alpn = List.of("hq-interop");
        ConnectionConfig serverConfig = ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, false)
                .withQlog(odcid -> serverLog);
        ConnectionConfig clientConfig = ConnectionPair.baseConfig(alpn, TlsConfig.ALL_SUITES, true)
                .withQlog(odcid -> clientLog);
        byte[] msg = new byte[1000];
        new Random(16).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), serverConfig, clientConfig, ONE_WAY, 16);
        // the runner's loss, datagram by datagram
        int[] serverHellos = {0};
        int[] clientInitials = {0};
        int[] finishedLost = {0};
        boolean[] fourthHelloCarriedAck = {false};
        long[] firstSample = {-1};
        pair.toClientFilter = d -> {
            List<Frame> frames = serverLog.takeDatagram();
            if (!types(d).contains(PacketType.INITIAL)) {
                return d;
            }
            if (carriesCrypto(frames, EncryptionLevel.INITIAL)) {
                serverHellos[0]++;
                if (serverHellos[0] == 4) {
                    // nothing arrived from the client since its second Initial: nothing new to acknowledge
                    fourthHelloCarriedAck[0] = frames.stream().anyMatch(f -> f instanceof AckFrame);
                    return d;
                }
            }
            // the server's first three Initials (its ServerHello: the first flight and two PTO probes) are lost, with
            // its ACK-only and PING-only Initials around them
            return serverHellos[0] < 4 ? null : d;
        };
        pair.toServerFilter = d -> {
            List<Frame> frames = clientLog.takeDatagram();
            if (firstSample[0] < 0 && pair.client.recovery().rtt().hasSample()) {
                firstSample[0] = pair.client.recovery().rtt().latestRtt();
            }
            if (carriesCrypto(frames, EncryptionLevel.HANDSHAKE)) {
                // the client's Finished: its first send, its retransmissions and both copies of a PTO probe are lost
                return finishedLost[0]++ < 4 ? null : d;
            }
            if (types(d).contains(PacketType.INITIAL)) {
                // the client's first two Initials arrive (its ClientHello and one copy of its first PTO probe); the
                // rest of its Initials are lost
                return clientInitials[0]++ < 2 ? d : null;
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(() -> client.done() && pair.client.isHandshakeConfirmed(), 60_000 * MS),
                "client " + pair.client.state() + " " + pair.client.closeReason() + " " + pair.client.counters()
                        + ", server " + (pair.server == null ? "none" : pair.server.state() + " "
                        + pair.server.closeReason()) + ", first RTT sample " + firstSample[0] / MS + " ms");
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(pair.server.isHandshakeConfirmed());
        // the loss pattern happened: four ServerHellos, the fourth delivered; five Finished, four lost
        assertEquals(4, serverHellos[0], "ServerHello copies sent before the handshake completed");
        assertTrue(finishedLost[0] >= 5, "copies of the Finished: " + finishedLost[0]);
        assertFalse(fourthHelloCarriedAck[0], "the server's fourth Initial repeated its old ACK");
        // RFC 9002 §5.3: the client's first sample is the path's round trip, not the time the server's ACK waited
        assertEquals(2 * ONE_WAY, firstSample[0]);
        assertTrue(pair.client.recovery().rtt().ptoBase() < 1_000 * MS,
                "PTO " + pair.client.recovery().rtt().ptoBase() / MS + " ms");
    }
}
