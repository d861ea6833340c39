package org.pacelab.net.link;

/**
 * Decides when the head-of-line packet of a FIFO bottleneck leaves it. Departure times of a FIFO,
 * non-preemptive server depend only on packets already queued, so the time is fixed when a packet becomes
 * the head of the queue.
 */
public interface RateLimiter {
    /**
     * Schedules the departure of the packet that just became head of the queue.
     *
     * @param bytes     bytes the packet occupies (including any per-packet overhead the limiter charges)
     * @param arrival   when the packet entered the queue
     * @param headSince when it became the head (its arrival, or the previous packet's departure)
     * @return departure time, or {@link Long#MAX_VALUE} if the packet can never leave (a finished trace)
     */
    long schedule(int bytes, long arrival, long headSince);

    /** Whether a packet of this size can ever leave (a token bucket refuses packets larger than its depth). */
    default boolean accepts(int bytes) { return true; }

    /** The long-run rate in bits per second, used to size queues in BDP; 0 if unlimited. */
    long meanBitsPerSecond();

    /** No rate limit: packets leave as soon as they are at the head. */
    RateLimiter UNLIMITED = new RateLimiter() {
        @Override public long schedule(int bytes, long arrival, long headSince) { return headSince; }
        @Override public long meanBitsPerSecond() { return 0; }
    };
}
