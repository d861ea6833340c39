package org.pacelab.analysis.metrics;

import org.HdrHistogram.Histogram;

/**
 * A distribution of non-negative durations in nanoseconds, memory-bounded: an HdrHistogram with
 * 3 significant digits (quantiles within 0.1 % of the exact value) whose range grows as needed.
 */
public final class NanosDistribution {
    private final Histogram histogram = new Histogram(3);
    private double sum;

    public void record(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("durations are non-negative, got " + ns + " ns");
        }
        histogram.recordValue(ns);
        sum += ns;
    }

    public void recordCount(long ns, long count) {
        histogram.recordValueWithCount(ns, count);
        sum += (double) ns * count;
    }

    public void merge(NanosDistribution other) {
        histogram.add(other.histogram);
        sum += other.sum;
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** Exact mean (kept beside the histogram). */
    public double meanNs() {
        return count() == 0 ? Double.NaN : sum / count();
    }

    /** Value at quantile q in [0, 1] (the histogram's bucket-median value, within 0.1 %). */
    public double quantileNs(double q) {
        if (count() == 0) {
            return Double.NaN;
        }
        long v = histogram.getValueAtPercentile(q * 100.0);
        return histogram.medianEquivalentValue(v);
    }

    public long maxNs() {
        return count() == 0 ? 0 : histogram.getMaxValue();
    }

    public long minNs() {
        return count() == 0 ? 0 : histogram.getMinValue();
    }

    /** Fraction of values strictly below {@code ns}, at the histogram's resolution. */
    public double shareBelow(long ns) {
        if (count() == 0) {
            return Double.NaN;
        }
        return ns <= 0 ? 0 : (double) histogram.getCountBetweenValues(0, ns - 1) / count();
    }

    /**
     * Points of the cumulative distribution: for each distinct histogram bucket in increasing order,
     * {@code action(valueNs, fractionAtOrBelow)}.
     */
    public void forEachCdfPoint(CdfPoint action) {
        long total = count();
        if (total == 0) {
            return;
        }
        long[] acc = {0};
        for (var v : histogram.recordedValues()) {
            acc[0] += v.getCountAtValueIteratedTo();
            action.accept(histogram.medianEquivalentValue(v.getValueIteratedTo()), (double) acc[0] / total);
        }
    }

    @FunctionalInterface
    public interface CdfPoint {
        void accept(double valueNs, double cumulativeFraction);
    }
}
