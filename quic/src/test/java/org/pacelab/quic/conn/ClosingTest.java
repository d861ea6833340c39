package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.QuicException;
import org.pacelab.quic.TransportError;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.frame.ConnectionCloseFrame;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.tls.TlsConfig;

/** Closing a connection (RFC 9000 §10.2): what the peer learns, at each stage of the handshake, and under loss. */
class ClosingTest {
    private static final List<String> ALPN = List.of("hq-interop");

    @Test
    void applicationCloseReachesThePeerWithItsCodeAndReason() throws Exception {
        EchoApps.Client client = new EchoApps.Client(EchoApps.random(5000, 1));
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, ALPN, TlsConfig.ALL_SUITES, 5_000_000L, 301);
        pair.start();
        assertTrue(pair.runUntil(client::done, 5_000_000_000L));
        client.t.close(0x42, "bye");
        pair.flush();
        assertTrue(pair.client.isTerminated());
        assertTrue(pair.runUntil(() -> server.closedCode >= 0, 1_000_000_000L));
        assertEquals(0x42, server.closedCode);
        assertEquals(0x42, pair.server.closeErrorCode());
        assertTrue(pair.server.closedByApplicationError());
        assertEquals("bye", pair.server.closeReason());
        assertFalse(pair.server.closedLocally());
        // both sides wait out their closing or draining period, then are closed
        assertTrue(pair.runUntil(() -> pair.client.isClosed() && pair.server.isClosed(), 5_000_000_000L));
    }

    @Test
    void aLostCloseIsRepeatedWhileThePeerKeepsSending() throws Exception {
        byte[] big = EchoApps.random(3_000_000, 2);
        EchoApps.Client client = new EchoApps.Client(big);
        EchoApps.Server server = new EchoApps.Server();
        FrameLog clientLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true).withQlog(odcid -> clientLog);
        ConnectionPair pair = new ConnectionPair(client, server, s, c, 5_000_000L, 302);
        pair.start();
        // the client's upload is under way and the server's echo starts (it echoes at FIN): close mid-transfer
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.counters().get("packets_received") > 300,
                10_000_000_000L));
        int[] closesDropped = {0};
        int[] closesSent = {0};
        pair.toServerFilter = d -> {
            if (clientLog.datagramCarries(ConnectionCloseFrame.class)) {
                closesSent[0]++;
                if (closesDropped[0]++ == 0) {
                    return null;
                }
            }
            return d;
        };
        long closedAt = pair.now;
        client.t.close(0x51, "enough");
        pair.flush();
        assertTrue(pair.runUntil(() -> server.closedCode >= 0, 5_000_000_000L), "server never learnt of the close");
        assertEquals(0x51, server.closedCode);
        assertTrue(closesSent[0] >= 2, "closes sent " + closesSent[0]);
        // well before any idle timeout: the repeated CONNECTION_CLOSE told it
        assertTrue(pair.now - closedAt < 1_000_000_000L);
    }

    @Test
    void closingBeforeTheHandshakeIsConfirmedHidesTheApplicationCode() throws Exception {
        // the client closes as soon as its handshake completes, before HANDSHAKE_DONE: it still has Initial and
        // Handshake keys, and there an application close travels as a transport APPLICATION_ERROR (RFC 9000 §10.2.3)
        FrameLog clientLog = new FrameLog();
        EchoApps.Server server = new EchoApps.Server();
        EchoApps.Client client = new EchoApps.Client(EchoApps.random(100, 3)) {
            @Override
            public void onConnected(StreamTransport transport) {
                t = transport;
                transport.close(0x33, "changed my mind");
            }
        };
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true).withQlog(odcid -> clientLog);
        ConnectionPair pair = new ConnectionPair(client, server, s, c, 5_000_000L, 303);
        List<Integer> sizes = new ArrayList<>();
        List<List<PacketType>> closeTypes = new ArrayList<>();
        pair.toServerFilter = d -> {
            int before = clientLog.sentTypes.size();
            if (clientLog.datagramCarries(ConnectionCloseFrame.class)) {
                sizes.add(d.length);
                closeTypes.add(List.copyOf(clientLog.sentTypes.subList(Math.max(0, before - 3), before)));
            }
            return d;
        };
        pair.start();
        assertTrue(pair.runUntil(() -> server.closedCode >= 0, 5_000_000_000L));
        assertEquals(TransportError.APPLICATION_ERROR.code, server.closedCode);
        assertFalse(pair.server.closedByApplicationError());
        assertEquals(0x33, pair.client.closeErrorCode());
        assertFalse(sizes.isEmpty());
        // the datagram carries an Initial packet, so it is padded to 1200 bytes (RFC 9000 §14.1)
        assertTrue(sizes.get(0) >= 1200, "close datagram of " + sizes.get(0) + " bytes");
    }

    @Test
    void anAbortBeforeTheServerAnswersIsSentInAnInitialPacket() throws Exception {
        EchoApps.Client client = new EchoApps.Client(EchoApps.random(100, 4));
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, ALPN, TlsConfig.ALL_SUITES, 5_000_000L, 304);
        List<Integer> sizes = new ArrayList<>();
        pair.toServerFilter = d -> {
            sizes.add(d.length);
            return d;
        };
        pair.start();
        pair.client.abort(new QuicException(TransportError.PROTOCOL_VIOLATION, "test abort"), pair.now);
        pair.flush();
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.closeErrorCode() != 0, 2_000_000_000L));
        assertEquals(TransportError.PROTOCOL_VIOLATION.code, pair.server.closeErrorCode());
        assertEquals("test abort", pair.server.closeReason());
        assertEquals(2, sizes.size());
        for (int size : sizes) {
            assertTrue(size >= 1200, "client datagram of " + size + " bytes");
        }
    }
}
