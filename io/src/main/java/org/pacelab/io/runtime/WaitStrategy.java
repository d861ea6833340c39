package org.pacelab.io.runtime;

/**
 * How the event loop waits for a short deadline, such as the pacer's next release time: the host half of
 * pacing. Longer waits, when a datagram may arrive first, go through the socket's readiness wait instead.
 */
public interface WaitStrategy {
    /** Short name used on the command line: {@code park}, {@code park-tight}, {@code hybrid}, {@code spin}. */
    String name();

    /** Returns at or after {@code deadline} (System.nanoTime scale); may return early only if interrupted. */
    void waitUntil(long deadline);

    /** Waits above this many ns go to the socket wait (so arriving datagrams end them); shorter ones here. */
    default long socketWaitThreshold() { return 2_000_000L; }
}
