package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.crypto.CipherSuite;
import org.pacelab.quic.tls.TlsConfig;

class ConnectionHandshakeTest {

    @Test
    void handshakeAndEchoOverVirtualLink() throws Exception {
        byte[] msg = "hello pacelab".getBytes(StandardCharsets.US_ASCII);
        EchoApps.Client client = new EchoApps.Client(msg);
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, List.of("hq-interop"), TlsConfig.ALL_SUITES, 10_000_000L, 1);
        pair.start();
        boolean ok = pair.runUntil(client::done, 5_000_000_000L);
        System.err.println("client " + pair.client.state() + " " + pair.client.counters() + " close=" + pair.client.closeReason()
            + " server " + (pair.server == null ? null : pair.server.state() + " " + pair.server.counters() + " close=" + pair.server.closeReason())
            + " d2s=" + pair.datagramsToServer + " d2c=" + pair.datagramsToClient);
        assertTrue(ok, "echo did not complete");
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(pair.client.isHandshakeConfirmed());
        assertTrue(pair.server.isHandshakeConfirmed());
        assertEquals("hq-interop", pair.client.applicationProtocol());
        assertEquals(CipherSuite.AES_128_GCM_SHA256, pair.client.cipherSuite());
    }

    @Test
    void chacha20OnlyClientNegotiatesChaCha20() throws Exception {
        byte[] msg = new byte[50_000];
        new java.util.Random(3).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        EchoApps.Server server = new EchoApps.Server();
        ConnectionPair pair = new ConnectionPair(client, server, List.of("hq-interop"),
                List.of(CipherSuite.CHACHA20_POLY1305_SHA256), 5_000_000L, 2);
        pair.start();
        assertTrue(pair.runUntil(client::done, 5_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        assertEquals(CipherSuite.CHACHA20_POLY1305_SHA256, pair.server.cipherSuite());
    }
}
