package org.pacelab.analysis.metrics;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counts of packet trains by length. Shares and quantiles are "per packet", as in the QUIC Steps study:
 * a train of n packets contributes n samples of value n.
 */
public final class TrainLengths {
    private static final int DENSE = 4096;
    private final long[] dense = new long[DENSE + 1];
    private final TreeMap<Integer, Long> sparse = new TreeMap<>();
    private long trains;
    private long packets;
    private int longest;

    /** Records one train of {@code length} ≥ 1 packets. */
    public void addTrain(int length) {
        addTrains(length, 1);
    }

    /** Records {@code count} trains of {@code length} packets each. */
    public void addTrains(int length, long count) {
        if (length < 1) {
            throw new IllegalArgumentException("train length must be at least 1, got " + length);
        }
        if (count == 0) {
            return;
        }
        if (length <= DENSE) {
            dense[length] += count;
        } else {
            sparse.merge(length, count, Long::sum);
        }
        trains += count;
        packets += (long) length * count;
        longest = Math.max(longest, length);
    }

    public void merge(TrainLengths other) {
        other.forEach(this::addTrains);
    }

    /** Calls {@code action(length, trainCount)} in increasing length order. */
    public void forEach(LengthCount action) {
        for (int n = 1; n <= DENSE; n++) {
            if (dense[n] != 0) {
                action.accept(n, dense[n]);
            }
        }
        for (Map.Entry<Integer, Long> e : sparse.entrySet()) {
            action.accept(e.getKey(), e.getValue());
        }
    }

    @FunctionalInterface
    public interface LengthCount {
        void accept(int length, long trains);
    }

    public long trains() {
        return trains;
    }

    /** Packets in all trains. */
    public long packets() {
        return packets;
    }

    public int longest() {
        return longest;
    }

    /** Number of packets that are in trains of length ≤ k. */
    public long packetsInTrainsAtMost(int k) {
        long[] sum = {0};
        forEach((n, c) -> {
            if (n <= k) {
                sum[0] += n * c;
            }
        });
        return sum[0];
    }

    /** Share of packets in trains of length ≤ k; NaN without packets. */
    public double shareAtMost(int k) {
        return packets == 0 ? Double.NaN : (double) packetsInTrainsAtMost(k) / packets;
    }

    /** Mean train length seen by a packet: Σ n² / Σ n. */
    public double perPacketMean() {
        if (packets == 0) {
            return Double.NaN;
        }
        double[] sq = {0};
        forEach((n, c) -> sq[0] += (double) n * n * c);
        return sq[0] / packets;
    }

    /** Smallest length L such that at least a fraction q of packets are in trains of length ≤ L. */
    public int perPacketQuantile(double q) {
        if (packets == 0) {
            throw new IllegalStateException("no trains recorded");
        }
        long target = (long) Math.ceil(q * packets);
        long[] acc = {0};
        int[] result = {longest};
        boolean[] found = {false};
        forEach((n, c) -> {
            acc[0] += n * c;
            if (!found[0] && acc[0] >= Math.max(1, target)) {
                result[0] = n;
                found[0] = true;
            }
        });
        return result[0];
    }
}
