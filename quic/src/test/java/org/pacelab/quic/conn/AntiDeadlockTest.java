package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.TlsConfig;

/**
 * RFC 9002 §6.2.2.1 and §A.6: until the client receives an acknowledgment of one of its Handshake packets (or the
 * handshake is confirmed) it keeps a PTO armed even with nothing in flight, because the server may be blocked by the
 * anti-amplification limit. The QUIC Interop Runner's amplificationlimit scenario: a certificate chain far larger than
 * three Initials, and the client's packets 2 to 7 dropped. Receiving a Handshake packet is not enough — that used to
 * stop the client's timer, and both sides then waited until the idle timeout.
 */
class AntiDeadlockTest {
    @Test
    void theClientUnblocksAnAmplificationLimitedServer() throws Exception {
        byte[] msg = new byte[5000];
        new java.util.Random(9).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        TestCertificates.Identity id = TestCertificates.rsa();
        ConnectionConfig server = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false)
                .withTls(TlsConfig.server(List.of("hq-interop"), TlsConfig.ALL_SUITES, java.util.Collections.nCopies(6, id.certificate()),
                        id.key()));
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), server,
                ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true), 15_000_000L, 11);
        int[] n = {0};
        pair.toServerFilter = d -> ++n[0] >= 2 && n[0] <= 7 ? null : d;
        pair.start();
        assertTrue(pair.runUntil(client::done, 25_000_000_000L), "the handshake deadlocked (client " + pair.client.state()
                + ", " + n[0] + " datagrams toward the server)");
        assertArrayEquals(msg, client.replies[0]);
    }
}
