package org.pacelab.io.runtime;

import org.pacelab.net.sys.Libc;

/**
 * The calling thread's timer slack (Linux prctl PR_SET_TIMERSLACK / PR_GET_TIMERSLACK, bound in {@link Libc}).
 * The kernel may delay a timer expiry by up to the slack (50 µs by default) to batch wake-ups.
 */
public final class TimerSlack {
    private TimerSlack() {}

    /** Sets the calling thread's timer slack in ns; throws with an explanation when the host cannot. */
    public static void set(long nanos) {
        if (Libc.setTimerSlack(nanos) != 0) {
            throw new IllegalStateException("prctl(PR_SET_TIMERSLACK, " + nanos + ") failed: " + Libc.strerror(Libc.errno())
                    + "; park-tight needs Linux");
        }
    }

    /** The calling thread's timer slack in ns. */
    public static long get() {
        long slack = Libc.timerSlack();
        if (slack < 0) {
            throw new IllegalStateException("prctl(PR_GET_TIMERSLACK) failed: " + Libc.strerror(Libc.errno()));
        }
        return slack;
    }
}
