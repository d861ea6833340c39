package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.TlsConfig;

/**
 * The sans-I/O rule covers threads: a server handshake must start none. (agent15's default session registry
 * started a non-daemon scheduler thread per server handshake that was never stopped, so a server leaked a thread
 * per connection and a process that had served once could not exit.)
 */
class ServerHandshakeThreadsTest {

    @Test
    void serverHandshakesStartNoThreads() throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        for (int i = 0; i < 2; i++) {
            EchoApps.Client client = new EchoApps.Client("ping".getBytes(StandardCharsets.US_ASCII));
            ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), List.of("hq-interop"),
                    TlsConfig.ALL_SUITES, 5_000_000L, 40 + i);
            pair.start();
            assertTrue(pair.runUntil(client::done, 5_000_000_000L), "echo did not complete");
        }
        Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
        started.removeAll(before);
        started.removeIf(t -> !t.isAlive());
        assertEquals(Set.of(), started, "threads started by server handshakes");
    }
}
