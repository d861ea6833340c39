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
            for (int i = 0; i < samples / 10; i++) {
                w.waitUntil(System.nanoTime() + 20_000 + r.nextLong(1_480_000));     // warm-up, not recorded
            }
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

    /**
     * resume − send time for readiness waits ended by a datagram that a second, long-lived thread sends after a
     * random pause of 0.2–2 ms (the waiter is asleep in the selector by then). The first tenth of the samples is a
     * warm-up and is dropped.
     */
    static long[] socketWakeLatency(int samples, long seed) {
        int warmup = samples / 10;
        long[] out = new long[samples];
        long[] sentAt = new long[samples + warmup];
        java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
        try (ChannelDatagramPort waiter = ChannelDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 20);
             ChannelDatagramPort sender = ChannelDatagramPort.bind(new InetSocketAddress("127.0.0.1", 0), 1 << 20)) {
            InetSocketAddress to = waiter.localAddress();
            ByteBuffer rx = ByteBuffer.allocate(2048);
            Thread s = Thread.ofPlatform().name("calibrate-sender").start(() -> {
                SplittableRandom r = new SplittableRandom(seed);
                ByteBuffer tx = ByteBuffer.allocate(64);
                try {
                    for (int i = 0; i < sentAt.length; i++) {
                        java.util.concurrent.locks.LockSupport.parkNanos(200_000 + r.nextLong(1_800_000));
                        sentAt[i] = System.nanoTime();
                        sent.set(i + 1);
                        sender.send(tx.clear(), to);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            for (int i = 0; i < sentAt.length; i++) {
                while (waiter.receive(rx.clear()) == null) {
                    waiter.awaitReadable(100_000_000L);
                }
                long woke = System.nanoTime();
                while (sent.get() <= i) {
                    Thread.onSpinWait();
                }
                if (i >= warmup) {
                    out[i - warmup] = Math.max(0, woke - sentAt[i]);
                }
            }
            s.join();
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
