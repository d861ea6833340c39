package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.TlsConfig;

/** Loss detection and the probe timeout (RFC 9002 §6, §7.6) on whole transfers. */
class LossRecoveryTest {
    private static final List<String> ALPN = List.of("hq-interop");

    @Test
    void reorderingDoesNotStopATransfer() throws Exception {
        byte[] msg = EchoApps.random(1_000_000, 1);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), ALPN, TlsConfig.ALL_SUITES, 10_000_000L, 401);
        // up to 4 ms of extra delay per datagram: many overtake their predecessors (time- and packet-threshold
        // losses that are spurious)
        pair.jitter = 4_000_000L;
        pair.start();
        assertTrue(pair.runUntil(client::done, 60_000_000_000L), "server " + pair.server.counters());
        assertArrayEquals(msg, client.replies[0]);
    }

    @Test
    void aBlackoutEstablishesPersistentCongestionAndTheTransferResumes() throws Exception {
        FrameLog serverLog = new FrameLog();
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withQlog(odcid -> serverLog);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true);
        byte[] msg = EchoApps.random(2_000_000, 2);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 10_000_000L, 402);
        pair.start();
        assertTrue(pair.runUntil(() -> pair.server != null && pair.server.counters().get("packets_sent") > 400,
                20_000_000_000L));
        long blackoutEnd = pair.now + 3_000_000_000L;
        int[] droppedDuringBlackout = {0};
        java.util.function.UnaryOperator<byte[]> blackout = d -> {
            if (pair.now < blackoutEnd) {
                droppedDuringBlackout[0]++;
                return null;
            }
            return d;
        };
        pair.toClientFilter = blackout;
        pair.toServerFilter = blackout;
        assertTrue(pair.runUntil(client::done, 120_000_000_000L), "server " + pair.server.counters());
        assertArrayEquals(msg, client.replies[0]);
        // RFC 9002 §7.6.2: persistent congestion collapses the window to kMinimumWindow (2 datagrams)
        assertEquals(2L * pair.server.maxDatagramSize(), serverLog.minCwnd);
        // during the blackout only probes go out, with exponential backoff (RFC 9002 §6.2.1)
        assertTrue(droppedDuringBlackout[0] < 60, "datagrams sent into the blackout: " + droppedDuringBlackout[0]);
    }

    @Test
    void keyUpdatesUnderLoss() throws Exception {
        byte[] msg = EchoApps.random(1_500_000, 3);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionConfig s = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, false).withKeyUpdateInterval(250);
        ConnectionConfig c = ConnectionPair.baseConfig(ALPN, TlsConfig.ALL_SUITES, true).withKeyUpdateInterval(150);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 5_000_000L, 403);
        pair.lossRate = 0.05;
        pair.start();
        assertTrue(pair.runUntil(client::done, 60_000_000_000L), "client " + pair.client.counters() + " "
                + pair.client.closeReason() + ", server " + pair.server.counters() + " " + pair.server.closeReason());
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(pair.server.counters().get("key_updates") >= 2, pair.server.counters().toString());
    }
}
