package org.pacelab.lab.interop;

import java.util.List;

/**
 * Mean and sample standard deviation of a measurement's values, as the runner reports them ({@code statistics.mean},
 * {@code statistics.stdev}: divisor n − 1; undefined, NaN here, for one value).
 */
public record GoodputStatistics(int n, double mean, double std) {
    public static GoodputStatistics of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        int n = values.size();
        double mean = values.stream().mapToDouble(Double::doubleValue).sum() / n;
        if (n == 1) {
            return new GoodputStatistics(1, mean, Double.NaN);
        }
        double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
        return new GoodputStatistics(n, mean, Math.sqrt(squares / (n - 1)));
    }

    /** The runner's details, {@code "9464 (± 12) kbps"}, with n: e.g. {@code 9464 ± 12 kbps (n 5)}. */
    public String describe(String unit) {
        return Double.isNaN(std) ? String.format(java.util.Locale.ROOT, "%.0f %s (n 1, no standard deviation)", mean, unit)
                : String.format(java.util.Locale.ROOT, "%.0f ± %.0f %s (n %d)", mean, std, unit, n);
    }
}
