package org.pacelab.io.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * Send strategy {@code park-tight}: parks like {@code park}, after lowering the waiting thread's timer slack
 * to 1 ns with prctl(PR_SET_TIMERSLACK), so the kernel does not defer the wake-up by its default 50 µs.
 */
public final class ParkTightWait implements WaitStrategy {
    private Thread tuned;

    @Override
    public String name() { return "park-tight"; }

    @Override
    public void waitUntil(long deadline) {
        if (tuned != Thread.currentThread()) {
            TimerSlack.set(1);
            tuned = Thread.currentThread();
        }
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }
}
