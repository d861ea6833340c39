package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.packet.PacketParser;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.packet.ParsedPacket;
import org.pacelab.quic.tls.SessionTicket;
import org.pacelab.quic.tls.SessionTickets;
import org.pacelab.quic.tls.TlsConfig;

/** 0-RTT (RFC 9001 §4.6): with a ticket that allows it, the client's first stream data leaves before the handshake ends. */
class ZeroRttTest {
    private static final byte[] MSG = new byte[4000];

    static {
        new SplittableRandom(7).nextBytes(MSG);
    }

    private record Run(ConnectionPair pair, int zeroRttPackets, int zeroRttBytes) {}

    private static Run run(ConnectionConfig server, ConnectionConfig client, long seed) throws Exception {
        EchoApps.Client c = new EchoApps.Client(MSG, MSG);
        ConnectionPair p = new ConnectionPair(c, new EchoApps.Server(), server, client, 10_000_000L, seed);
        int[] zeroRtt = new int[2];
        p.toServerFilter = d -> {
            int offset = 0;
            while (offset < d.length) {
                ParsedPacket pp;
                try {
                    pp = PacketParser.parse(ByteBuffer.wrap(d), offset, 8);
                } catch (Exception e) {
                    break;
                }
                if (pp.type() == PacketType.ZERO_RTT) {
                    zeroRtt[0]++;
                    zeroRtt[1] += pp.packetEnd() - pp.headerStart();
                }
                offset = pp.packetEnd();
            }
            return d;
        };
        p.start();
        assertTrue(p.runUntil(c::done, 5_000_000_000L), () -> "echo did not complete: client " + p.client.state() + " "
                + p.client.counters() + " " + p.client.closeReason() + ", server " + (p.server == null ? "none"
                : p.server.state() + " " + p.server.counters() + " " + p.server.closeReason()) + ", 0-RTT packets " + zeroRtt[0]
                + ", replies " + c.completed + ", streams opened " + c.streamIndex.size());
        assertArrayEquals(MSG, c.replies[0]);
        assertArrayEquals(MSG, c.replies[1]);
        return new Run(p, zeroRtt[0], zeroRtt[1]);
    }

    private static ConnectionConfig server(SessionTickets tickets) {
        ConnectionConfig base = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
        return base.withTls(base.tls().withTickets(tickets));
    }

    private static ConnectionConfig client() {
        return ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true);
    }

    @Test
    void theSecondConnectionSendsItsRequestsIn0Rtt() throws Exception {
        SessionTickets tickets = new SessionTickets(new SplittableRandom(1), 16, true);
        Run first = run(server(tickets), client(), 1);
        assertEquals(0, first.zeroRttPackets());
        SessionTicket ticket = first.pair().client.sessionTicket();
        assertNotNull(ticket);
        assertTrue(ticket.earlyData(), "the server's tickets allow 0-RTT (max_early_data_size 0xffffffff)");

        Run second = run(server(tickets), client().withTls(client().tls().withResumption(ticket, true)), 2);
        assertTrue(second.pair().client.resumed());
        assertTrue(second.pair().client.earlyDataAccepted(), "the server accepted 0-RTT");
        assertFalse(second.pair().client.earlyDataRejected());
        // both 4000-byte messages went before the handshake completed: more 0-RTT bytes than the messages
        assertTrue(second.zeroRttBytes() > 2 * MSG.length, "0-RTT bytes: " + second.zeroRttBytes());
    }

    @Test
    void aRejected0RttIsSentAgainIn1Rtt() throws Exception {
        SessionTickets tickets = new SessionTickets(new SplittableRandom(2), 16, true);
        SessionTicket ticket = run(server(tickets), client(), 3).pair().client.sessionTicket();
        ConnectionConfig resuming = client().withTls(client().tls().withResumption(ticket, true));
        assertTrue(run(server(tickets), resuming, 4).pair().client.earlyDataAccepted());

        // the ticket was used: the server makes a full handshake and ignores the 0-RTT packets (RFC 8446 §8.1)
        Run replay = run(server(tickets), resuming, 5);
        assertTrue(replay.zeroRttPackets() > 0, "the client tried 0-RTT");
        assertFalse(replay.pair().client.resumed());
        assertFalse(replay.pair().client.earlyDataAccepted());
        assertTrue(replay.pair().client.earlyDataRejected());
    }

    @Test
    void ticketsOfAServerWithout0RttDoNotOfferIt() throws Exception {
        SessionTickets tickets = new SessionTickets(new SplittableRandom(3), 16, false);
        SessionTicket ticket = run(server(tickets), client(), 6).pair().client.sessionTicket();
        assertFalse(ticket.earlyData());
        Run second = run(server(tickets), client().withTls(client().tls().withResumption(ticket, true)), 7);
        assertTrue(second.pair().client.resumed());
        assertEquals(0, second.zeroRttPackets());
    }
}
