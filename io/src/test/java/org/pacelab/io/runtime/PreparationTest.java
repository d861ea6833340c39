package org.pacelab.io.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.pacelab.net.sys.UdpSocket;

/** The set-up threads: their work leaves the endpoint usable, and a failure of theirs is dropped without a trace. */
class PreparationTest {
    @Test
    void afterTheEndpointsPreparationASocketSendsAndReceives() throws Exception {
        Preparation.endpointInBackground().join();
        try (UdpSocket a = UdpSocket.bind(new InetSocketAddress("127.0.0.1", 0), "a");
             UdpSocket b = UdpSocket.bind(new InetSocketAddress("127.0.0.1", 0), "b")) {
            a.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), b.localAddress());
            int n = -1;
            for (int i = 0; i < 1000 && n < 0; i++) {
                n = b.receive();
                if (n < 0) {
                    Thread.sleep(1);
                }
            }
            assertEquals(3, n);
            assertEquals(a.localAddress(), b.lastSource());
        }
    }

    @Test
    void aFailureOfTheWorkIsDroppedNotPrinted() throws Exception {
        AtomicReference<Throwable> uncaught = new AtomicReference<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.set(e));
        try {
            Thread t = Preparation.inBackground("pacelab-prepare-test", () -> {
                throw new IllegalStateException("no libcrypto");
            });
            t.join();
            assertTrue(t.isDaemon());
            assertEquals(null, uncaught.get());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }
}
