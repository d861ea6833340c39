package org.pacelab.net.driver;

/**
 * Which thread is inside an emulator's run loop, so that {@code close()} called from another thread (a test, a
 * shutdown hook) waits for the loop to leave before it frees the poller, sockets, event log and tap the loop uses:
 * closing them under it fails its native calls ("Session is acquired by 1 clients") or loses records being written.
 * The loops wake at least every {@link RealTimeDriver}'s maximum wait (50 ms), so the wait is short after a stop.
 */
public final class LoopOccupancy {
    /** How long {@link #awaitExit} waits at most before giving up (a loop stuck in a system call). */
    public static final long EXIT_WAIT_NANOS = 10_000_000_000L;

    private volatile Thread runner;

    /** Called by the loop's thread as it enters the loop. */
    public void enter() { runner = Thread.currentThread(); }

    /** Called by the loop's thread as it leaves (in a finally block). */
    public void leave() { runner = null; }

    /** Waits until no other thread is inside the loop, at most {@link #EXIT_WAIT_NANOS}; the caller has asked it to stop. */
    public void awaitExit() {
        long deadline = System.nanoTime() + EXIT_WAIT_NANOS;
        Thread t;
        while ((t = runner) != null && t != Thread.currentThread() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
