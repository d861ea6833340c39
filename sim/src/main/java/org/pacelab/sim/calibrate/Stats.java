package org.pacelab.sim.calibrate;

import java.util.Arrays;

/** Small statistics over measured samples. */
final class Stats {
    private Stats() {}

    static long median(long[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        long[] s = samples.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /**
     * Least-squares line through (x, y) points: {@code [intercept, slope]}, the intercept clamped at 0 (a cost
     * cannot be negative; noise can make the fit cross zero).
     */
    static double[] line(double[] x, double[] y) {
        int n = x.length;
        double mx = 0, my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxx = 0, sxy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
        }
        double slope = sxx == 0 ? 0 : Math.max(0, sxy / sxx);
        double intercept = Math.max(0, my - slope * mx);
        return new double[] {intercept, slope};
    }
}
