package org.pacelab.analysis.qlog;

import java.util.Arrays;

/**
 * Congestion-control state over time from qlog {@code metrics_updated} events: time (seconds since the trace's
 * first event) and, per point, the congestion window, bytes in flight, pacing rate, RTTs and ssthresh
 * (NaN where the event did not carry the value). Holds at most {@link #MAX_POINTS} points: a longer trace is
 * thinned evenly (every second point dropped each time the limit is reached), keeping memory bounded.
 */
public final class CongestionTimeline {
    public static final int MAX_POINTS = 1 << 18;

    /** The columns, in CSV order. */
    public enum Column {
        CONGESTION_WINDOW("congestion_window"),
        BYTES_IN_FLIGHT("bytes_in_flight"),
        PACING_RATE_BPS("pacing_rate_bps"),
        SMOOTHED_RTT_MS("smoothed_rtt_ms"),
        MIN_RTT_MS("min_rtt_ms"),
        LATEST_RTT_MS("latest_rtt_ms"),
        SSTHRESH("ssthresh");

        private final String csvName;

        Column(String csvName) {
            this.csvName = csvName;
        }

        public String csvName() {
            return csvName;
        }
    }

    private static final int COLUMNS = Column.values().length;
    private double[] time = new double[1024];
    private double[][] values = new double[COLUMNS][1024];
    private int size;
    private int stride = 1;
    private long offered;

    /** Adds a point; {@code v} holds one value per {@link Column} (NaN for absent). */
    public void add(double timeS, double[] v) {
        if (v.length != COLUMNS) {
            throw new IllegalArgumentException("expected " + COLUMNS + " values, got " + v.length);
        }
        if (offered++ % stride != 0) {
            return;
        }
        if (size == MAX_POINTS) {
            thin();
            if ((offered - 1) % stride != 0) {
                return;
            }
        }
        if (size == time.length) {
            int n = Math.min(MAX_POINTS, size * 2);
            time = Arrays.copyOf(time, n);
            for (int c = 0; c < COLUMNS; c++) {
                values[c] = Arrays.copyOf(values[c], n);
            }
        }
        time[size] = timeS;
        for (int c = 0; c < COLUMNS; c++) {
            values[c][size] = v[c];
        }
        size++;
    }

    private void thin() {
        int j = 0;
        for (int i = 0; i < size; i += 2) {
            time[j] = time[i];
            for (int c = 0; c < COLUMNS; c++) {
                values[c][j] = values[c][i];
            }
            j++;
        }
        size = j;
        stride *= 2;
    }

    public int size() {
        return size;
    }

    public double time(int i) {
        return time[i];
    }

    public double value(Column c, int i) {
        return values[c.ordinal()][i];
    }

    /** True when any point has a value in this column. */
    public boolean has(Column c) {
        double[] col = values[c.ordinal()];
        for (int i = 0; i < size; i++) {
            if (!Double.isNaN(col[i])) {
                return true;
            }
        }
        return false;
    }

    /** True when points were dropped to stay within {@link #MAX_POINTS}. */
    public boolean thinned() {
        return stride > 1;
    }
}
