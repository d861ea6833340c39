package org.pacelab.io.runtime;

import java.util.concurrent.locks.LockSupport;

/** Send strategy {@code park}: LockSupport.parkNanos with the thread's default timer slack. */
public final class ParkWait implements WaitStrategy {
    @Override
    public String name() { return "park"; }

    @Override
    public void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }
}
