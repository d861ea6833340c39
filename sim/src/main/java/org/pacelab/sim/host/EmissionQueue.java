package org.pacelab.sim.host;

/**
 * Datagrams a host has passed to a send system call that reach the kernel's qdisc at a later virtual time (when
 * the call's cost has elapsed), in that order. Each entry is one datagram or one GSO buffer. Circular parallel
 * arrays: no allocation per entry.
 */
final class EmissionQueue {
    private long[] time = new long[64];
    private Object[] data = new Object[64];
    private int[] count = new int[64];
    private int[] flow = new int[64];
    private long[] txtime = new long[64];
    private long[] rate = new long[64];
    private int head;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    /** Time of the last entry, or {@link Long#MIN_VALUE} when empty. */
    long lastTime() {
        return size == 0 ? Long.MIN_VALUE : time[(head + size - 1) & (time.length - 1)];
    }

    long firstTime() {
        return size == 0 ? Long.MAX_VALUE : time[head];
    }

    /** Queues a datagram ({@code segments == 0}) or a GSO buffer of {@code segments} segments. */
    void add(long at, Object datagramOrSegments, int segments, int flowId, long sendTime, long pacingRate) {
        if (size > 0 && at < time[(head + size - 1) & (time.length - 1)]) {
            throw new IllegalStateException("emissions must be queued in time order");
        }
        if (size == time.length) {
            grow();
        }
        int i = (head + size) & (time.length - 1);
        time[i] = at;
        data[i] = datagramOrSegments;
        count[i] = segments;
        flow[i] = flowId;
        txtime[i] = sendTime;
        rate[i] = pacingRate;
        size++;
    }

    /** Hands the first entry to the kernel at {@code now} and removes it. */
    void emitFirst(KernelSendPath kernel, long now) {
        int i = head;
        Object d = data[i];
        data[i] = null;
        head = (head + 1) & (time.length - 1);
        size--;
        if (count[i] == 0) {
            kernel.send((byte[]) d, flow[i], txtime[i], now);
        } else {
            kernel.sendSegments((byte[][]) d, count[i], flow[i], txtime[i], rate[i], now);
        }
    }

    private void grow() {
        int n = time.length * 2;
        long[] t = new long[n];
        Object[] d = new Object[n];
        int[] c = new int[n];
        int[] f = new int[n];
        long[] x = new long[n];
        long[] r = new long[n];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (time.length - 1);
            t[k] = time[i];
            d[k] = data[i];
            c[k] = count[i];
            f[k] = flow[i];
            x[k] = txtime[i];
            r[k] = rate[i];
        }
        time = t;
        data = d;
        count = c;
        flow = f;
        txtime = x;
        rate = r;
        head = 0;
    }
}
