package org.pacelab.sim.calibrate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import org.pacelab.io.port.ChannelDatagramPort;
import org.pacelab.io.runtime.WaitStrategies;
import org.pacelab.io.runtime.WaitStrategy;

/**
 * Measures how late the io runtime's waits resume on this host, with the runtime's own classes: the send
 * strategies' {@link WaitStrategy#waitUntil} for deadlines 20 µs to 1.5 ms ahead (the pacing gaps of tens of
 * Mbit/s), and the socket readiness wait ({@link ChannelDatagramPort#awaitReadable}) ending by its timeout or by a
 * datagram. Each strategy runs on a fresh thread, so {@code park} sees the default timer slack and
 * {@code park-tight}'s prctl stays on its own thread.
 */
final class WaitProbe {
    private WaitProbe() {}

    /** resume − deadline for {@code samples} waits of the named strategy. */
    static long[] strategyLateness(String strategy, int samples, long seed) {
        long[] out = new long[samples];
        run("calibrate-" + strategy, () -> {
            WaitStrategy w = WaitStrategies.parse(strategy);
            SplittableRandom r = new SplittableRandom(seed);
            for (int i = 0; i < samples; i++) {
                long deadline = System.nanoTime() + 20_000 + r.nextLong(1_480_000);
                w.waitUntil(deadline);
                out[i] = Math.max(0, System.nanoTime() - deadline);
            }
        });
        return out;
    }

    /** resume − timeout for readiness waits that no datagram ends (timeouts 1–3 ms, as the loop's select rounds them). */
    static long[] socketTimeoutLateness(int samples, long seed) {
        long[] out = new long[samples];
        run("calibrate-select", () -> {
            try (ChannelDatagramPort port = ChannelDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 16)) {
                SplittableRandom r = new SplittableRandom(seed);
                for (int i = 0; i < samples; i++) {
                    long ms = 1 + r.nextInt(3);
                    long start = System.nanoTime();
                    port.awaitReadable(ms * 1_000_000L);
                    out[i] = Math.max(0, System.nanoTime() - start - ms * 1_000_000L);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return out;
    }

    /** resume − send time for readiness waits ended by a datagram sent from another thread. */
    static long[] socketWakeLatency(int samples, long seed) {
        long[] out = new long[samples];
        try (ChannelDatagramPort waiter = ChannelDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 20);
             ChannelDatagramPort sender = ChannelDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 20)) {
            InetSocketAddress to = waiter.localAddress();
            SplittableRandom r = new SplittableRandom(seed);
            ByteBuffer rx = ByteBuffer.allocate(2048);
            ByteBuffer tx = ByteBuffer.allocate(64);
            for (int i = 0; i < samples; i++) {
                long[] sentAt = new long[1];
                long delay = 200_000 + r.nextLong(1_800_000);
                Thread s = Thread.ofPlatform().start(() -> {
                    java.util.concurrent.locks.LockSupport.parkNanos(delay);
                    sentAt[0] = System.nanoTime();
                    try {
                        sender.send(tx.clear(), to);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                waiter.awaitReadable(100_000_000L);
                long woke = System.nanoTime();
                s.join();
                out[i] = Math.max(0, woke - sentAt[0]);
                while (waiter.receive(rx.clear()) != null) {
                    // drain
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("calibration interrupted", e);
        }
        return out;
    }

    private static void run(String name, Runnable body) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().name(name).start(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("calibration interrupted", e);
        }
        if (failure.get() instanceof RuntimeException re) {
            throw re;
        }
        if (failure.get() != null) {
            throw new IllegalStateException(failure.get());
        }
    }
}
