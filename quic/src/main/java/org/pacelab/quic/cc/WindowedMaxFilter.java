package org.pacelab.quic.cc;

/**
 * A windowed maximum over a discrete clock (round trips or ProbeBW cycles): the largest value recorded at a
 * time in (now - windowLength, now]. BBR uses it for BBR.max_bw (window of 2 ProbeBW cycles) and
 * BBR.extra_acked (window of 1 or 10 round trips), draft-ietf-ccwg-bbr §"BBR.max_bw Max Filter". Each time
 * slot keeps its own maximum, so the result is exact (the draft allows Kathleen Nichols' three-sample
 * approximation; with at most ten slots the exact form is as cheap).
 */
final class WindowedMaxFilter {
    private final long[] values;
    private final long[] times;
    private final boolean[] used;

    /** @param capacity the longest window that will be asked for */
    WindowedMaxFilter(int capacity) {
        values = new long[capacity];
        times = new long[capacity];
        used = new boolean[capacity];
    }

    /** Records {@code value} at {@code time} (times never decrease) and returns the window's maximum. */
    long update(long value, long time, int windowLength) {
        int slot = (int) Math.floorMod(time, (long) values.length);
        if (!used[slot] || times[slot] != time) {
            used[slot] = true;
            times[slot] = time;
            values[slot] = value;
        } else if (value > values[slot]) {
            values[slot] = value;
        }
        return get(time, windowLength);
    }

    /** The maximum of the values recorded in (time - windowLength, time], or 0 when there is none. */
    long get(long time, int windowLength) {
        if (windowLength > values.length) {
            throw new IllegalArgumentException("window " + windowLength + " exceeds capacity " + values.length);
        }
        long max = 0;
        for (int i = 0; i < values.length; i++) {
            if (used[i] && times[i] <= time && time - times[i] < windowLength) {
                max = Math.max(max, values[i]);
            }
        }
        return max;
    }
}
