package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.TlsConfig;

/** NAT rebinding during a transfer (RFC 9000 §9.3) and the path validation it starts (§8.2). */
class PathValidationTest {

    @Test
    void theServerFollowsARebindingClientAndValidatesTheNewPath() throws Exception {
        byte[] msg = new byte[1_500_000];
        new Random(7).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES,
                10_000_000L, 41);
        pair.useEndpoint(false);
        pair.start();
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.isHandshakeConfirmed()
                && pair.server.counters().get("packets_received") > 200, 20_000_000_000L));
        ServerEndpoint.Entry entry = pair.endpoint.connections().iterator().next();
        assertEquals(ConnectionPair.CLIENT_ADDRESS, entry.peer());

        // the NAT gives the client a new port: the next datagrams come from there
        InetSocketAddress rebound = new InetSocketAddress("192.0.2.1", 6000);
        pair.clientAddress = rebound;
        assertTrue(pair.runUntil(client::done, 60_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        assertEquals(rebound, entry.peer());
        assertEquals(1L, pair.endpoint.counters().get("peer_address_changes"));
        var c = pair.server.counters();
        assertEquals(1L, c.get("path_validations_started"), c.toString());
        assertEquals(1L, c.get("path_validations_succeeded"), c.toString());
        assertFalse(pair.server.isPathValidating());
    }

    /**
     * RFC 9000 §9.4: halfway through a download the client moves to a path four times as long (5 ms one way, then
     * 20 ms). With a new address the server, once the path is validated, starts its congestion controller and RTT
     * estimator again, so its min RTT is the new path's; with only a new port (a NAT rebinding) it keeps both, and its
     * min RTT stays the old path's.
     */
    @Test
    void aNewAddressResetsCongestionAndRttStateButANewPortKeepsThem() throws Exception {
        QuicConnection moved = moveMidTransfer(new InetSocketAddress("192.0.2.7", 5000));
        assertEquals(1L, moved.counters().get("path_congestion_resets"), moved.counters().toString());
        assertTrue(moved.recovery().rtt().minRtt() >= 40_000_000L, "min RTT " + moved.recovery().rtt().minRtt());

        QuicConnection rebound = moveMidTransfer(new InetSocketAddress("192.0.2.1", 6000));
        assertEquals(0L, rebound.counters().get("path_congestion_resets"), rebound.counters().toString());
        assertTrue(rebound.recovery().rtt().minRtt() < 11_000_000L, "min RTT " + rebound.recovery().rtt().minRtt());
    }

    /** A 3 MB echo; after 300 packets the client's datagrams come from {@code to} over a 20 ms one-way path. */
    private static QuicConnection moveMidTransfer(InetSocketAddress to) throws Exception {
        byte[] msg = new byte[3_000_000];
        new Random(9).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES,
                5_000_000L, 43);
        pair.useEndpoint(false);
        pair.start();
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.isHandshakeConfirmed()
                && pair.server.counters().get("packets_received") > 300, 20_000_000_000L));
        assertTrue(pair.server.recovery().rtt().minRtt() < 11_000_000L);
        pair.clientAddress = to;
        pair.oneWayDelay = 20_000_000L;
        assertTrue(pair.runUntil(client::done, 60_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        assertEquals(1L, pair.server.counters().get("path_validations_succeeded"), pair.server.counters().toString());
        return pair.server;
    }

    @Test
    void anUnchangedAddressStartsNoValidation() throws Exception {
        byte[] msg = new byte[200_000];
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES,
                10_000_000L, 42);
        pair.useEndpoint(false);
        pair.start();
        assertTrue(pair.runUntil(client::done, 20_000_000_000L));
        assertEquals(0L, pair.server.counters().get("path_validations_started"));
        assertEquals(0L, pair.endpoint.counters().get("peer_address_changes"));
    }

    @Test
    void aResponseMustEchoAnOutstandingChallenge() {
        PathValidator v = new PathValidator(new SplittableRandom(3));
        long pto = 100_000_000L;
        long maxAckDelay = 25_000_000L;
        v.start(0, pto, maxAckDelay);
        assertTrue(v.challengeDue());
        byte[] first = v.takeChallenge(0);
        assertFalse(v.challengeDue());
        // nothing arrived on the path yet: nothing may be sent on it; then three times what arrived (§8.2.1)
        assertEquals(0, v.allowance());
        v.onReceived(1200);
        v.onSent(1000);
        assertEquals(2600, v.allowance());
        // unanswered for the new path's initial PTO (§8.2.1, RFC 9002 §6.2.2), not the current path's: a new challenge,
        // the first one still accepted
        v.onTimeout(pto, pto, maxAckDelay);
        assertFalse(v.challengeDue());
        assertEquals(ChallengeSchedule.INITIAL_PTO, v.timer());
        v.onTimeout(ChallengeSchedule.INITIAL_PTO, pto, maxAckDelay);
        assertTrue(v.challengeDue());
        byte[] second = v.takeChallenge(ChallengeSchedule.INITIAL_PTO);
        assertEquals(3 * ChallengeSchedule.INITIAL_PTO, v.timer(), "the interval doubles: the next challenge at 2.997 s, "
                + "before the deadline of 3 * (999 + 25) ms (§8.2.4)");
        assertFalse(java.util.Arrays.equals(first, second));
        assertFalse(v.onResponse(new byte[8]));
        assertTrue(v.validating());
        assertTrue(v.onResponse(first));
        assertFalse(v.validating());
        assertEquals(Long.MAX_VALUE, v.allowance());
        assertEquals(Long.MAX_VALUE, v.timer());
        assertEquals(1, v.validated());
    }

    @Test
    void aValidationWithoutAnswerFailsAtItsDeadlineAndStartsAgain() {
        PathValidator v = new PathValidator(new SplittableRandom(4));
        long pto = 10_000_000L;
        long maxAckDelay = 25_000_000L;
        v.start(0, pto, maxAckDelay);
        v.takeChallenge(0);
        // §8.2.4: three times the larger of the current PTO (10 + 25 ms) or the new path's (999 + 25 ms)
        long deadline = 3_072_000_000L;
        for (long t = pto; t < deadline; t += pto) {
            v.onTimeout(t, pto, maxAckDelay);
            if (v.challengeDue()) {
                v.takeChallenge(t);
            }
        }
        assertEquals(0, v.failed());
        // §8.2.1: at 0, after the initial PTO (999 ms) and twice that later (2997 ms), not every 10 ms PTO of the
        // current path
        assertEquals(3, v.challengesSent());
        v.onTimeout(deadline, pto, maxAckDelay);
        assertEquals(1, v.failed());
        assertTrue(v.validating());
        assertTrue(v.challengeDue());
    }
}
