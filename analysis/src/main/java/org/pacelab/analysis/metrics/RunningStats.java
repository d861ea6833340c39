package org.pacelab.analysis.metrics;

/**
 * Count, mean and population standard deviation of a stream of values (Welford's method, numerically stable),
 * with minimum and maximum.
 */
public final class RunningStats {
    private long n;
    private double mean;
    private double m2;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    public void add(double x) {
        n++;
        double d = x - mean;
        mean += d / n;
        m2 += d * (x - mean);
        min = Math.min(min, x);
        max = Math.max(max, x);
    }

    public void merge(RunningStats o) {
        if (o.n == 0) {
            return;
        }
        if (n == 0) {
            n = o.n;
            mean = o.mean;
            m2 = o.m2;
            min = o.min;
            max = o.max;
            return;
        }
        long total = n + o.n;
        double d = o.mean - mean;
        mean += d * o.n / total;
        m2 += o.m2 + d * d * ((double) n * o.n / total);
        n = total;
        min = Math.min(min, o.min);
        max = Math.max(max, o.max);
    }

    public long count() {
        return n;
    }

    /** NaN when empty. */
    public double mean() {
        return n == 0 ? Double.NaN : mean;
    }

    /** Population standard deviation (divides by n); NaN when empty, 0 for one value. */
    public double populationStd() {
        return n == 0 ? Double.NaN : Math.sqrt(Math.max(0, m2 / n));
    }

    public double min() {
        return n == 0 ? Double.NaN : min;
    }

    public double max() {
        return n == 0 ? Double.NaN : max;
    }
}
