package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.TlsConfig;

class ConnectionTransferTest {

    @Test
    void fiftyConcurrentStreams() throws Exception {
        byte[][] msgs = new byte[50][];
        for (int i = 0; i < msgs.length; i++) {
            msgs[i] = EchoApps.random(1000 + i * 37, i);
        }
        EchoApps.Client client = new EchoApps.Client(msgs);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 10_000_000L, 5);
        pair.start();
        assertTrue(pair.runUntil(client::done, 10_000_000_000L));
        for (int i = 0; i < msgs.length; i++) {
            assertArrayEquals(msgs[i], client.replies[i], "stream " + i);
        }
    }

    @Test
    void largeTransferSurvivesTenPercentLoss() throws Exception {
        byte[] msg = EchoApps.random(2_000_000, 9);
        EchoApps.Client client = new EchoApps.Client(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 15_000_000L, 11);
        pair.lossRate = 0.10;
        pair.start();
        boolean ok = pair.runUntil(client::done, 120_000_000_000L);
        assertTrue(ok, "transfer under loss did not complete: client " + pair.client.counters() + " " + pair.client.closeReason()
                + " server " + (pair.server == null ? "none" : pair.server.counters() + " " + pair.server.closeReason()));
        assertArrayEquals(msg, client.replies[0]);
        assertTrue(pair.server.counters().get("packets_lost") > 0, "loss should have been detected");
    }

    @Test
    void manyStreamsBeyondTheStreamLimitWaitForCredit() throws Exception {
        byte[][] msgs = new byte[300][];
        for (int i = 0; i < msgs.length; i++) {
            msgs[i] = EchoApps.random(100, i);
        }
        EchoApps.Client client = new EchoApps.Client(msgs);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"), TlsConfig.ALL_SUITES, 2_000_000L, 6);
        pair.start();
        assertTrue(pair.runUntil(client::done, 30_000_000_000L), "completed " + client.completed);
        assertEquals(300, client.completed);
    }
}
