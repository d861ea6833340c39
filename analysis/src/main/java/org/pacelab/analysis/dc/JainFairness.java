package org.pacelab.analysis.dc;

/**
 * Jain's fairness index (R. Jain, D.-M. Chiu, W. Hawe, "A Quantitative Measure of Fairness and Discrimination for
 * Resource Allocation in Shared Computer Systems", DEC-TR-301, 1984): for allocations x1..xn,
 * J = (Σ xi)² / (n · Σ xi²). J is 1 when all are equal and 1/n when one flow gets everything.
 */
public final class JainFairness {
    private JainFairness() {}

    /** The index of the allocations; NaN when there are none or all are zero (nothing to share). */
    public static double index(double... x) {
        if (x.length == 0) return Double.NaN;
        double sum = 0, squares = 0;
        for (double v : x) {
            if (v < 0 || !Double.isFinite(v)) throw new IllegalArgumentException("allocations must be finite and >= 0, got " + v);
            sum += v;
            squares += v * v;
        }
        if (squares == 0) return Double.NaN;
        return sum * sum / (x.length * squares);
    }

    /**
     * The index over sliding windows: for each start bin s in [from, to − window], the index of the flows' byte counts
     * summed over bins [s, s + window). {@code bytes[f][i]} is flow f's count in bin i (missing bins count 0).
     * Returns one value per start bin (NaN where every flow was idle).
     */
    public static double[] sliding(long[][] bytes, int from, int to, int window) {
        if (window < 1) throw new IllegalArgumentException("window must be at least 1 bin");
        int n = Math.max(0, to - from - window + 1);
        double[] out = new double[n];
        double[] sums = new double[bytes.length];
        for (int f = 0; f < bytes.length; f++) {
            for (int i = from; i < from + window && i < to; i++) sums[f] += at(bytes[f], i);
        }
        for (int s = 0; s < n; s++) {
            int start = from + s;
            if (s > 0) {
                for (int f = 0; f < bytes.length; f++) sums[f] += at(bytes[f], start + window - 1) - at(bytes[f], start - 1);
            }
            out[s] = index(sums.clone());
        }
        return out;
    }

    private static long at(long[] v, int i) { return i >= 0 && i < v.length ? v[i] : 0; }
}
