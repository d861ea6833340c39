package org.pacelab.analysis.qlog;

import java.util.Arrays;

/**
 * The 1-RTT packets a qlog says were sent, indexed by packet number in primitive arrays (8–28 bytes per packet,
 * no objects): intended send time, size and the pacing rate in force when it was sent. The arrays reach only as far
 * as the packets kept justify ({@link #add}), so one record with a huge packet number cannot size them.
 */
public final class SentPackets {
    /** Packet numbers any trace may use before it has kept a packet: room for skipped numbers and 0-RTT before 1-RTT. */
    static final long REACH = 1 << 16;
    /** Packet numbers each kept packet adds to the reach: stacks skip a number now and then, not 15 in 16. */
    static final long SPREAD = 16;

    private double[] sendAtMs = new double[0];
    private double[] eventMs = new double[0];
    private int[] size = new int[0];
    private double[] pacingRateBps = new double[0];
    private long count;
    private long withSendAt;
    private long maxPn = -1;

    /**
     * Keeps a packet if {@code pn} lies within what the packets kept so far justify: {@link #REACH} plus
     * {@link #SPREAD} per packet. A number beyond it would size the arrays for packets that were never logged (2e9:
     * 56 GB). Within reach, a negative number (or one no array can index) is ignored, and of a packet logged twice the
     * first is kept.
     *
     * @return whether {@code pn} was within reach: false means the packet was not kept for lying beyond it (the
     *         reader counts those), true that it was kept or ignored as above
     */
    boolean add(long pn, double eventTimeMs, double sendAtTimeMs, int bytes, double rateBps) {
        if (pn > REACH + SPREAD * count) {
            return false;
        }
        if (pn < 0 || pn > Integer.MAX_VALUE - 8) {
            return true;
        }
        int i = (int) pn;
        if (i >= eventMs.length) {
            int n = Math.max(i + 1, Math.max(1024, eventMs.length * 2));
            sendAtMs = grow(sendAtMs, n);
            eventMs = grow(eventMs, n);
            pacingRateBps = grow(pacingRateBps, n);
            size = Arrays.copyOf(size, n);
        }
        if (!Double.isNaN(eventMs[i])) {
            return true; // logged twice: keep the first
        }
        eventMs[i] = eventTimeMs;
        sendAtMs[i] = sendAtTimeMs;
        size[i] = bytes;
        pacingRateBps[i] = rateBps;
        count++;
        if (!Double.isNaN(sendAtTimeMs)) {
            withSendAt++;
        }
        maxPn = Math.max(maxPn, pn);
        return true;
    }

    private static double[] grow(double[] a, int n) {
        int old = a.length;
        double[] b = Arrays.copyOf(a, n);
        Arrays.fill(b, old, n, Double.NaN);
        return b;
    }

    public boolean contains(long pn) {
        return pn >= 0 && pn < eventMs.length && !Double.isNaN(eventMs[(int) pn]);
    }

    /** Intended send time in ms relative to the trace's reference time; NaN when not logged. */
    public double sendAtMs(long pn) {
        return contains(pn) ? sendAtMs[(int) pn] : Double.NaN;
    }

    public double eventMs(long pn) {
        return contains(pn) ? eventMs[(int) pn] : Double.NaN;
    }

    /** Packet size in bytes as logged (0 when unknown). */
    public int size(long pn) {
        return contains(pn) ? size[(int) pn] : 0;
    }

    /** Pacing rate (bit/s) in force when the packet was logged; NaN when the trace has none. */
    public double pacingRateBps(long pn) {
        return contains(pn) ? pacingRateBps[(int) pn] : Double.NaN;
    }

    public long count() {
        return count;
    }

    /** Packets whose event carried a send_at_time. */
    public long withSendAt() {
        return withSendAt;
    }

    public long maxPacketNumber() {
        return maxPn;
    }
}
