package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.crypto.PacketKeys;
import org.pacelab.quic.frame.AckFrame;
import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.frame.PingFrame;
import org.pacelab.quic.packet.EncryptionLevel;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketSpace;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.tls.SessionTicket;
import org.pacelab.quic.tls.SessionTickets;
import org.pacelab.quic.tls.TlsConfig;

/**
 * 0-RTT packets that arrive in the burst of the client's first Initial while {@link InitialAckFirst} holds its
 * ClientHello: their keys come from the TLS step (RFC 9001 §4.6.1, §5.7), so they wait in {@link PacketsAwaitingKeys}
 * (at most 16, RFC 9001 §4.1.4) until the timer turn that runs it, and are processed in that same call, right after
 * the keys exist. More than the buffer holds do not make the server drop any: the TLS step then runs at once.
 */
class InitialAckFirstZeroRttTest {
    private static final List<String> ALPN = List.of("hq-interop");
    private static final long MS = 1_000_000L;

    private static ConnectionConfig server(SessionTickets tickets) {
        ConnectionConfig base = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false);
        return base.withTls(base.tls().withTickets(tickets));
    }

    private static SessionTicket ticket(SessionTickets tickets) {
        EchoApps.Client c = new EchoApps.Client(new byte[1]);
        ConnectionPair p = new ConnectionPair(c, new EchoApps.Server(), server(tickets),
                ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true), 10 * MS, 1);
        try {
            p.start();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        assertTrue(p.runUntil(c::done, 5_000 * MS), "the first connection did not complete");
        SessionTicket t = p.client.sessionTicket();
        assertNotNull(t);
        assertTrue(t.earlyData());
        return t;
    }

    /** A 0-RTT packet as the client would send it: a PING, padded to a full datagram. */
    private static byte[] zeroRttPing(QuicConnection client) {
        PacketKeys tx = client.keySchedule().tx(EncryptionLevel.ZERO_RTT);
        long pn = client.takePacketNumber(PacketSpace.APPLICATION);
        ByteBuffer out = ByteBuffer.allocate(1500);
        PacketBuilder b = PacketBuilder.start(out, EncryptionLevel.ZERO_RTT, pn, -1, new PacketBuilder.Header(
                client.version(), client.peerConnectionId(), client.sourceConnectionId(), new byte[0], false), 1200, 2);
        b.write(new PingFrame());
        b.pad(b.remaining());
        b.finish(out);
        int size = b.seal(out, tx);
        return Arrays.copyOf(out.array(), size);
    }

    private static int zeroRttPackets(List<byte[]> datagrams) throws Exception {
        int n = 0;
        for (byte[] d : datagrams) {
            int offset = 0;
            while (offset < d.length) {
                ParsedPacket p = PacketParser.parse(ByteBuffer.wrap(d), offset, 8);
                if (p.type() == PacketType.ZERO_RTT) {
                    n++;
                }
                offset = p.packetEnd();
            }
        }
        return n;
    }

    /** {@code zeroRtt}: the 0-RTT packets in the burst of the first Initial (the client's own, then PINGs). */
    @ParameterizedTest
    @ValueSource(ints = {12, 16, 24, 40})
    void zeroRttPacketsInTheFirstBurstAreProcessedOnceTheirKeysExistAndNoneIsDropped(int zeroRtt) throws Exception {
        SessionTickets tickets = new SessionTickets(new SplittableRandom(1), 16, true);
        SessionTicket ticket = ticket(tickets);
        ConnectionConfig clientConfig = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true);
        clientConfig = clientConfig.withTls(clientConfig.tls().withResumption(ticket, true));
        FrameLog serverLog = new FrameLog();
        StatelessResetTokens tokens = new StatelessResetTokens(new byte[32]);
        long t0 = 1_000 * MS;
        QuicConnection client = QuicConnection.client(clientConfig, new EchoApps.Client(new byte[3000]),
                new SplittableRandom(3), tokens, ConnectionPair.noCids(), t0);
        List<byte[]> burst = new ArrayList<>(ConnectionPair.datagrams(client, t0));
        int own = zeroRttPackets(burst);
        assertTrue(own > 0 && own < zeroRtt, "the client's own 0-RTT packets: " + own);
        while (zeroRttPackets(burst) < zeroRtt) {
            burst.add(zeroRttPing(client));
        }
        ParsedPacket first = PacketParser.parse(ByteBuffer.wrap(burst.get(0)), 0, 8);
        assertEquals(PacketType.INITIAL, first.type());

        long arrival = t0 + 15 * MS;
        QuicConnection server = ConnectionPair.serverFor(server(tickets).withQlog(odcid -> serverLog), tokens, burst.get(0),
                arrival);
        for (byte[] d : burst) {
            server.receiveInBurst(ByteBuffer.wrap(d), arrival);
        }
        server.endReceiveBurst();
        long received = server.counters().get("packets_received");
        long dropped = server.counters().get("packets_dropped");
        assertEquals(0, dropped, "0-RTT packets dropped of " + zeroRtt);
        List<byte[]> out = ConnectionPair.datagrams(server, arrival);
        List<Frame> firstOut = serverLog.takeDatagram();
        if (zeroRtt <= PacketsAwaitingKeys.CAPACITY) {
            // all wait for the TLS step; the ACK-only Initial leaves first (RFC 9000 §13.2.1)
            assertEquals(1, received, "only the Initial is processed in the burst");
            assertFalse(server.keySchedule().hasRx(EncryptionLevel.ZERO_RTT));
            assertTrue(firstOut.size() == 1 && firstOut.get(0) instanceof AckFrame, "first datagram: " + firstOut);
            assertEquals(arrival, server.nextTimeout(), "the TLS step is due at the next timer turn");
            // the next timer turn (here 5 ms later, a busy host): TLS, then at once every 0-RTT packet of the burst
            server.onTimeout(arrival + 5 * MS);
            assertEquals(1 + zeroRtt, server.counters().get("packets_received"));
        } else {
            // more than the buffer holds: the TLS step ran when the buffer was full, the rest went straight in
            assertEquals(1 + zeroRtt, received, "every packet of the burst is processed in it");
            assertTrue(firstOut.stream().anyMatch(f -> f instanceof org.pacelab.quic.stream.CryptoDataSent),
                    "the ACK leaves with the flight: " + firstOut);
        }
        assertEquals(0, server.counters().get("packets_dropped"));
        assertFalse(out.isEmpty());
    }
}
