package org.pacelab.analysis.metrics;

import java.util.Map;
import java.util.TreeMap;

/**
 * A histogram of signed values with fixed-width bins, stored sparsely (memory grows with the number of
 * occupied bins, not with the number of values). Used for send delays (wire time − intended send time),
 * which may be negative when the clocks of capture and sender differ.
 */
public final class SignedHistogram {
    private final long binWidth;
    private final TreeMap<Long, Long> bins = new TreeMap<>();
    private long count;

    public SignedHistogram(long binWidth) {
        if (binWidth <= 0) {
            throw new IllegalArgumentException("bin width must be positive, got " + binWidth);
        }
        this.binWidth = binWidth;
    }

    public void record(long value) {
        recordCount(value, 1);
    }

    public void recordCount(long value, long n) {
        bins.merge(Math.floorDiv(value, binWidth), n, Long::sum);
        count += n;
    }

    public void merge(SignedHistogram other) {
        if (other.binWidth != binWidth) {
            throw new IllegalArgumentException("bin widths differ: " + binWidth + " and " + other.binWidth);
        }
        other.bins.forEach((k, v) -> bins.merge(k, v, Long::sum));
        count += other.count;
    }

    public long binWidth() {
        return binWidth;
    }

    public long count() {
        return count;
    }

    /** Value at quantile q in [0, 1], as the centre of the bin holding it; NaN when empty. */
    public double quantile(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        long target = Math.max(1, (long) Math.ceil(q * count));
        long acc = 0;
        for (Map.Entry<Long, Long> e : bins.entrySet()) {
            acc += e.getValue();
            if (acc >= target) {
                return e.getKey() * (double) binWidth + binWidth / 2.0;
            }
        }
        return bins.lastKey() * (double) binWidth + binWidth / 2.0;
    }

    /** Calls {@code action(binStart, count)} for each occupied bin in increasing order. */
    public void forEachBin(BinCount action) {
        bins.forEach((k, v) -> action.accept(k * binWidth, v));
    }

    @FunctionalInterface
    public interface BinCount {
        void accept(long binStart, long count);
    }
}
