package org.pacelab.io.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * Send strategy {@code hybrid}: parks until shortly before the deadline, then spins the rest, trading a
 * little CPU for the precision of spinning (the wake-up latency of a park is tens of microseconds).
 */
public final class HybridWait implements WaitStrategy {
    private final long spinNanos;

    /** @param spinNanos how long before the deadline to stop parking and spin (e.g. 60 µs) */
    public HybridWait(long spinNanos) {
        this.spinNanos = spinNanos;
    }

    @Override
    public String name() { return "hybrid"; }

    @Override
    public void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > spinNanos) {
            LockSupport.parkNanos(left - spinNanos);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
        while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
