package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.io.send.SendConfig;
import org.pacelab.io.tls.Certificates;
import org.pacelab.quic.conn.CongestionConfig;
import org.pacelab.quic.conn.ConnectionConfig;
import org.pacelab.quic.tls.TlsConfig;

class JitWarmupTest {
    private static ConnectionConfig serverConfig(List<String> alpns) throws Exception {
        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        return ConnectionConfig.defaults(TlsConfig.server(alpns, TlsConfig.ALL_SUITES, id.chain(), id.key()),
                CongestionConfig.fromOptions(Map.of("--cc", "cubic", "--pacer", "interval")));
    }

    @Test
    void transfersTheWholeBodyWithTheServersSettings() throws Exception {
        JitWarmup.Result r = JitWarmup.run(serverConfig(List.of("h3", "hq-interop")), true, SendConfig.DEFAULT, 1 << 22,
                2 << 20, 60_000_000_000L);
        assertTrue(r.completed(), r.describe());
        assertNull(r.problem());
        assertEquals(2 << 20, r.bytes());
        assertTrue(r.describe().startsWith("warm-up: 2097152 bytes over loopback"), r.describe());
    }

    @Test
    void stopsAtItsTimeLimitWhenThePacingCapMakesTheTransferSlow() throws Exception {
        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        ConnectionConfig capped = ConnectionConfig.defaults(TlsConfig.server(List.of("h3"), TlsConfig.ALL_SUITES, id.chain(),
                id.key()), CongestionConfig.fromOptions(Map.of("--pacer", "interval", "--max-pacing-rate", "8mbit")));
        JitWarmup.Result r = JitWarmup.run(capped, false, SendConfig.DEFAULT, 1 << 22, 100 << 20, 1_000_000_000L);
        assertEquals(JitWarmup.Ending.TIME_LIMIT, r.ending(), r.describe());
        assertTrue(r.describe().startsWith("warm-up: stopped at its time limit"), r.describe());
    }

    @Test
    void warmsUpHqInteropOnlyServers() throws Exception {
        JitWarmup.Result r = JitWarmup.run(serverConfig(List.of("hq-interop")), false, SendConfig.DEFAULT, 1 << 22,
                1 << 20, 60_000_000_000L);
        assertTrue(r.completed(), r.describe());
    }
}
