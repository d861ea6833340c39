package org.pacelab.net.testing;

import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * For tests of a producer that must wait for a stalled consumer (bounded hand-overs): waits until the producer's thread
 * has stopped making progress and is parked in a timed wait, or until a deadline. Tests then assert on what the
 * producer managed to hand over; the deadline only bounds a test whose producer never stalls (which its assertions then
 * catch), it is not a measured threshold.
 */
public final class Stalls {
    private static final long POLL_MILLIS = 200;

    private Stalls() {}

    /**
     * Polls every 200 ms until {@code progress} has not changed between two polls while {@code producer} is in
     * {@link Thread.State#TIMED_WAITING}, or {@code deadline} has passed.
     */
    public static void awaitStalled(Thread producer, IntSupplier progress, Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        int last = -1;
        while (System.nanoTime() < end) {
            Thread.sleep(POLL_MILLIS);
            int now = progress.getAsInt();
            if (now == last && producer.getState() == Thread.State.TIMED_WAITING) {
                return;
            }
            last = now;
        }
    }
}
