package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.SessionTicket;
import org.pacelab.quic.tls.SessionTickets;
import org.pacelab.quic.tls.TlsConfig;

/** TLS session resumption (RFC 8446 §2.2, RFC 9001 §4.5): a ticket from one connection resumes the next. */
class ResumptionTest {
    private static final byte[] MSG = "resume me".getBytes(StandardCharsets.US_ASCII);

    private static ConnectionPair pair(ConnectionConfig server, ConnectionConfig client, long seed) throws Exception {
        EchoApps.Client c = new EchoApps.Client(MSG);
        ConnectionPair p = new ConnectionPair(c, new EchoApps.Server(), server, client, 10_000_000L, seed);
        p.start();
        assertTrue(p.runUntil(c::done, 5_000_000_000L), "echo did not complete");
        assertArrayEquals(MSG, c.replies[0]);
        return p;
    }

    @Test
    void aTicketFromTheFirstConnectionResumesTheSecondOnce() throws Exception {
        SessionTickets tickets = new SessionTickets(new SplittableRandom(1), 16, false);
        ConnectionConfig base = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
        ConnectionConfig server = base.withTls(base.tls().withTickets(tickets));
        ConnectionConfig client = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true);

        ConnectionPair first = pair(server, client, 1);
        assertFalse(first.client.resumed());
        assertFalse(first.server.resumed());
        SessionTicket ticket = first.client.sessionTicket();
        assertNotNull(ticket, "the server issues a ticket after the handshake");
        assertEquals(1, tickets.issued());
        assertEquals(ticket, SessionTicket.decode(ticket.encode()));

        ConnectionPair second = pair(server, client.withTls(client.tls().withResumption(ticket, false)), 2);
        assertTrue(second.client.resumed(), "the client resumed");
        assertTrue(second.server.resumed(), "the server resumed");
        assertEquals(1, tickets.resumed());

        // a ticket is good once: replaying it gets a full handshake
        ConnectionPair third = pair(server, client.withTls(client.tls().withResumption(ticket, false)), 3);
        assertFalse(third.client.resumed());
        assertFalse(third.server.resumed());
    }

    @Test
    void aServerWithoutTicketsIssuesNoneAndIgnoresOffers() throws Exception {
        ConnectionConfig server = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false);
        ConnectionConfig client = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true);
        ConnectionPair p = pair(server, client, 4);
        assertEquals(null, p.client.sessionTicket());
    }
}
