package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pacelab.quic.tls.TlsConfig;

class PacedTransferTest {

    @ParameterizedTest
    @ValueSource(strings = {"none", "interval", "leaky-bucket", "token-bucket"})
    void pacedTransferCompletes(String pacer) throws Exception {
        byte[] msg = new byte[3_000_000];
        new Random(1).nextBytes(msg);
        EchoApps.Client client = new EchoApps.Client(msg);
        CongestionConfig cc = CongestionConfig.fromOptions(Map.of("--cc", "cubic", "--pacer", pacer));
        ConnectionConfig s = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, false).withCongestion(cc);
        ConnectionConfig c = ConnectionPair.baseConfig(List.of("hq-interop"), TlsConfig.ALL_SUITES, true).withCongestion(cc);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), s, c, 10_000_000L, 3);
        pair.start();
        boolean ok = pair.runUntil(client::done, 60_000_000_000L);
        assertTrue(ok, "paced transfer stalled: client " + pair.client.counters() + " server "
                + (pair.server == null ? "-" : pair.server.counters() + " cwnd " + pair.server.recovery().congestionController().congestionWindow()
                + " inflight " + pair.server.recovery().bytesInFlight() + " rate " + pair.server.recovery().pacingRate()));
        assertArrayEquals(msg, client.replies[0]);
    }
}
