package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.recovery.EcnValidator;
import org.pacelab.quic.tls.TlsConfig;

/** ECN (RFC 9000 §13.4): counts in ACK frames, marking, and validation of the path. */
class EcnTest {
    private static ConnectionPair pair(ConnectionPair.EcnLink link, long seed) throws Exception {
        byte[] msg = new byte[200_000];
        new java.util.Random(seed).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false).withEcn(true);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).withEcn(true);
        ConnectionPair p = new ConnectionPair(client, new EchoApps.Server(), s, c, 10_000_000L, seed);
        p.ecnLink = link;
        p.start();
        assertTrue(p.runUntil(client::done, 20_000_000_000L), "echo did not complete");
        assertArrayEquals(msg, client.replies[0]);
        return p;
    }

    @Test
    void aPathThatKeepsTheMarksIsValidatedAndEveryPacketIsMarked() throws Exception {
        ConnectionPair p = pair(ConnectionPair.EcnLink.KEPT, 1);
        assertEquals(EcnValidator.State.CAPABLE, p.client.ecn().state(), String.valueOf(p.client.ecn().failure()));
        assertEquals(EcnValidator.State.CAPABLE, p.server.ecn().state(), String.valueOf(p.server.ecn().failure()));
        assertEquals(EcnValidator.ECT0, p.server.ecnCodepoint());
    }

    @Test
    void bleachedMarksFailValidationAndMarkingStops() throws Exception {
        ConnectionPair p = pair(ConnectionPair.EcnLink.BLEACHED, 2);
        assertEquals(EcnValidator.State.FAILED, p.server.ecn().state());
        assertTrue(p.server.ecn().failure().startsWith("the ECT(0) and CE counts grew by 0"), p.server.ecn().failure());
        assertEquals(0, p.server.ecnCodepoint());
    }

    @Test
    void aPeerThatCannotReadEcnSendsNoCountsAndMarkingStops() throws Exception {
        ConnectionPair p = pair(ConnectionPair.EcnLink.HIDDEN, 3);
        assertEquals(EcnValidator.State.FAILED, p.server.ecn().state());
        assertTrue(p.server.ecn().failure().contains("without ECN counts"), p.server.ecn().failure());
    }

    @Test
    void congestionExperiencedMarksAreCountedAndKeepThePathValid() throws Exception {
        ConnectionPair p = pair(ConnectionPair.EcnLink.CE, 4);
        assertEquals(EcnValidator.State.CAPABLE, p.server.ecn().state(), String.valueOf(p.server.ecn().failure()));
        assertTrue(p.server.ecn().ceReported() > 0);
    }

    @Test
    void ecnOffNeverMarks() throws Exception {
        EcnValidator v = new EcnValidator(false);
        assertEquals(0, v.codepoint());
        assertEquals(EcnValidator.State.FAILED, v.state());
    }
}
