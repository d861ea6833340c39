package org.pacelab.quic.conn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.pacelab.quic.tls.TlsConfig;

/**
 * A burst of datagrams (what one recvmmsg or GRO read returns) is processed as a whole: the application hears
 * of it once, and the acknowledgement is decided once, when the runtime asks for output afterwards.
 */
class ReceiveBurstTest {
    private static final List<String> ALPN = List.of("hq-interop");

    /** Counts how often the client application is told that data can be read. */
    static final class CountingClient extends EchoApps.Client {
        int readableCalls;

        CountingClient(byte[] message) {
            super(message);
        }

        @Override
        public void onStreamReadable(long id) {
            readableCalls++;
            super.onStreamReadable(id);
        }
    }

    private static CountingClient transfer(boolean bursts, boolean endpoint, byte[] msg) throws Exception {
        CountingClient client = new CountingClient(msg);
        ConnectionPair pair = new ConnectionPair(client, new EchoApps.Server(), ALPN, TlsConfig.ALL_SUITES, 10_000_000L, 501);
        pair.bursts = bursts;
        if (endpoint) {
            pair.useEndpoint(false);
        }
        pair.start();
        assertTrue(pair.runUntil(client::done, 20_000_000_000L));
        assertArrayEquals(msg, client.replies[0]);
        return client;
    }

    @Test
    void theApplicationHearsOfEachBurstOnce() throws Exception {
        byte[] msg = new byte[1_000_000];
        new Random(1).nextBytes(msg);
        CountingClient single = transfer(false, false, msg);
        CountingClient burst = transfer(true, false, msg);
        // unpaced, the server's flights arrive many datagrams at a time
        assertTrue(burst.readableCalls * 4 < single.readableCalls,
                "readable callbacks: " + burst.readableCalls + " in bursts, " + single.readableCalls + " one by one");
    }

    @Test
    void aServerEndpointTakesBurstsToo() throws Exception {
        byte[] msg = new byte[300_000];
        new Random(2).nextBytes(msg);
        // the server's application sees the client's Finished and its first STREAM data in one burst, in order
        // (EchoApps.Server would fail on a STREAM before onConnected)
        CountingClient burst = transfer(true, true, msg);
        assertEquals(1, burst.completed);
    }
}
