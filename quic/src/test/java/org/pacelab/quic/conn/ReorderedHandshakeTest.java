package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.TlsConfig;

/**
 * The server's first flight arriving last: the client buffers the Handshake and 1-RTT packets it cannot decrypt yet
 * (RFC 9001 §4.1.4) and, once the Initial brings the keys, processes them — including when processing one of them
 * drains the rest (found by the interop matrix's handshakecorruption case: the client crashed with a
 * NullPointerException).
 */
class ReorderedHandshakeTest {
    @Test
    void theServersFirstDatagramArrivingAfterTheRestIsHandled() throws Exception {
        byte[] msg = new byte[3000];
        new java.util.Random(5).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        // an RSA certificate sent twice over makes the server's Handshake flight span several datagrams
        TestCertificates.Identity id = TestCertificates.rsa();
        ConnectionConfig server = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false)
                .withTls(TlsConfig.server(List.of("hq-interop"), TlsConfig.ALL_SUITES, List.of(id.certificate(), id.certificate(),
                        id.certificate()), id.key()));
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), server,
                ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true), 10_000_000L, 7);
        List<byte[]> held = new ArrayList<>();
        int[] n = {0};
        pair.toClientFilter = d -> {
            n[0]++;
            if (n[0] != 1) {
                return d;
            }
            // the first datagram coalesces the server's Initial (ServerHello) with Handshake packets: hold the Initial
            // back and let the rest through, so the client buffers every Handshake and 1-RTT packet it gets
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(d);
            try {
                org.pacelab.quic.packet.ParsedPacket initial = org.pacelab.quic.packet.PacketParser.parse(b, 0, 8);
                held.add(java.util.Arrays.copyOfRange(d, 0, initial.packetEnd()));
                return initial.packetEnd() < d.length ? java.util.Arrays.copyOfRange(d, initial.packetEnd(), d.length) : null;
            } catch (org.pacelab.quic.packet.MalformedPacketException e) {
                throw new IllegalStateException(e);
            }
        };
        pair.start();
        // let every other datagram of the server's flight reach the client first, then the Initial
        pair.runUntil(() -> false, 50_000_000L);
        for (byte[] d : held) {
            pair.injectToClient(d);
        }
        pair.flush();
        assertTrue(pair.runUntil(client::done, 10_000_000_000L), "echo did not complete");
        assertArrayEquals(msg, client.replies[0]);
    }
}
