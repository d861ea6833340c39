package org.pacelab.analysis.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import org.pacelab.analysis.metrics.NanosDistribution;
import org.pacelab.analysis.metrics.SignedHistogram;
import org.pacelab.analysis.metrics.TrainLengths;
import org.pacelab.analysis.qlog.CongestionTimeline;

/**
 * The report's figures, drawn with JFreeChart: the inter-packet-gap CDF and the per-packet train-length CDF
 * overlaid per configuration (the QUIC Steps study's Figures 2–5), the congestion-window timeline (its Figure 6)
 * and the histogram of send delays behind the precision metric. Each returns null when no configuration has data.
 */
final class Figures {
    /** Gaps below this are drawn at it: a log axis has no 0. */
    static final double MIN_GAP_US = 0.1;
    private static final int TIMELINE_BUCKETS = 1500;

    private Figures() {}

    static JFreeChart ipgCdf(List<ConfigurationAggregate> configs, double thresholdUs) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (ConfigurationAggregate c : configs) {
            NanosDistribution gaps = c.pooled().gaps();
            if (gaps.count() == 0) {
                continue;
            }
            XYSeries s = new XYSeries(c.name(), true, true);
            gaps.forEachCdfPoint((ns, fraction) -> s.addOrUpdate(Math.max(MIN_GAP_US, ns / 1000.0), fraction));
            data.addSeries(s);
        }
        if (data.getSeriesCount() == 0) {
            return null;
        }
        LogAxis axis = decades("Inter-packet gap (µs, log scale)", MIN_GAP_US, data.getDomainUpperBound(false));
        extendSteps(data, axis.getLowerBound(), axis.getUpperBound());
        JFreeChart chart = ChartFactory.createXYLineChart("Inter-packet gaps of the server's packets (pooled CDF)",
                "Inter-packet gap (µs, log scale)", "Share of gaps ≤ x", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(axis);
        plot.setRenderer(new XYStepRenderer());
        ((NumberAxis) plot.getRangeAxis()).setRange(0, 1.02); // a curve at 1 stays visible above the border
        if (thresholdUs > 0) {
            plot.addDomainMarker(marker(thresholdUs, String.format(Locale.ROOT, "train threshold %s µs",
                    trim(thresholdUs))));
        }
        return ChartStyle.apply(chart);
    }

    static JFreeChart trainLengthCdf(List<ConfigurationAggregate> configs) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (ConfigurationAggregate c : configs) {
            TrainLengths t = c.pooled().trains();
            if (t.packets() == 0) {
                continue;
            }
            XYSeries s = new XYSeries(c.name(), true, true);
            long[] acc = {0};
            t.forEach((n, trains) -> {
                acc[0] += n * trains;
                s.addOrUpdate(n, (double) acc[0] / t.packets());
            });
            data.addSeries(s);
        }
        if (data.getSeriesCount() == 0) {
            return null;
        }
        LogAxis trainAxis = decades("Train length (packets, log scale)", 1, Math.max(100, data.getDomainUpperBound(false) * 1.5));
        extendSteps(data, trainAxis.getLowerBound(), trainAxis.getUpperBound());
        JFreeChart chart = ChartFactory.createXYLineChart("Packet-train lengths, counted per packet (pooled CDF)",
                "Train length (packets, log scale)", "Share of packets in trains ≤ x", data, PlotOrientation.VERTICAL,
                true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(trainAxis);
        plot.setRenderer(new XYStepRenderer());
        ((NumberAxis) plot.getRangeAxis()).setRange(0, 1.02); // a curve at 1 stays visible above the border
        return ChartStyle.apply(chart);
    }

    static JFreeChart cwndTimeline(List<ConfigurationAggregate> configs) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (ConfigurationAggregate c : configs) {
            CongestionTimeline t = c.timeline();
            if (t == null || !t.has(CongestionTimeline.Column.CONGESTION_WINDOW)) {
                continue;
            }
            XYSeries s = new XYSeries(c.name() + " (run " + c.timelineRun() + ")", false, true);
            envelope(t, CongestionTimeline.Column.CONGESTION_WINDOW, 1 / 1024.0, s);
            data.addSeries(s);
        }
        if (data.getSeriesCount() == 0) {
            return null;
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Congestion window of the server (one run per configuration)",
                "Time since the qlog trace started (s)", "Congestion window (KiB)", data, PlotOrientation.VERTICAL,
                true, false, false);
        return ChartStyle.apply(chart);
    }

    /**
     * Adds the timeline to the series, keeping in each of {@link #TIMELINE_BUCKETS} time buckets the points with the
     * smallest and the largest value, so that a sawtooth keeps its peaks and troughs at any length.
     */
    static void envelope(CongestionTimeline t, CongestionTimeline.Column column, double scale, XYSeries s) {
        int n = t.size();
        if (n == 0) {
            return;
        }
        double start = t.time(0);
        double end = t.time(n - 1);
        double width = Math.max(1e-9, (end - start) / TIMELINE_BUCKETS);
        int i = 0;
        while (i < n) {
            int bucket = (int) ((t.time(i) - start) / width);
            int lo = -1;
            int hi = -1;
            int j = i;
            while (j < n && (int) ((t.time(j) - start) / width) == bucket) {
                double v = t.value(column, j);
                if (!Double.isNaN(v)) {
                    if (lo < 0 || v < t.value(column, lo)) {
                        lo = j;
                    }
                    if (hi < 0 || v > t.value(column, hi)) {
                        hi = j;
                    }
                }
                j++;
            }
            if (lo >= 0) {
                int first = Math.min(lo, hi);
                int second = Math.max(lo, hi);
                s.add(t.time(first), t.value(column, first) * scale);
                if (second != first) {
                    s.add(t.time(second), t.value(column, second) * scale);
                }
            }
            i = j;
        }
    }

    static JFreeChart precisionHistogram(List<ConfigurationAggregate> configs) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (ConfigurationAggregate c : configs) {
            SignedHistogram h = c.centredSendDelays();
            if (h.count() > 0) {
                lo = Math.min(lo, (long) h.quantile(0.01)); // the central 98 %: rare late sends would flatten the shape
                hi = Math.max(hi, (long) h.quantile(0.99));
            }
        }
        if (lo == Long.MAX_VALUE) {
            return null;
        }
        long binNs = niceBin(Math.max(1, hi - lo) / 60);
        long low = lo;
        long high = hi;
        XYSeriesCollection data = new XYSeriesCollection();
        for (ConfigurationAggregate c : configs) {
            SignedHistogram h = c.centredSendDelays();
            if (h.count() == 0) {
                continue;
            }
            SignedHistogram display = new SignedHistogram(binNs);
            h.forEachBin(display::recordCount);
            XYSeries s = new XYSeries(c.name(), true, true);
            long first = Math.floorDiv(low, binNs) * binNs;
            for (long b = first; b <= high + binNs; b += binNs) {
                s.add(b / 1000.0, 0.0);
            }
            long total = h.count();
            display.forEachBin((start, n) -> {
                if (start >= first && start <= high + binNs) {
                    s.addOrUpdate(start / 1000.0, (double) n / total);
                }
            });
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                "Send delay (wire time − intended send time), each run centred on its mean",
                "Send delay − run mean (µs, bins of " + trim(binNs / 1000.0) + " µs; 1st–99th percentile shown)",
                "Share of matched packets", data,
                PlotOrientation.VERTICAL, true, false, false);
        chart.getXYPlot().setRenderer(new XYStepRenderer());
        return ChartStyle.apply(chart);
    }

    /**
     * Makes each CDF visible over the whole axis: it starts at 0 at the axis's left end and stays at its last value
     * to the right end (a one-point CDF would otherwise draw nothing).
     */
    static void extendSteps(XYSeriesCollection data, double left, double right) {
        for (int i = 0; i < data.getSeriesCount(); i++) {
            XYSeries s = data.getSeries(i);
            double last = s.getY(s.getItemCount() - 1).doubleValue();
            if (s.getMinX() > left) {
                s.addOrUpdate(left, 0.0);
            }
            if (s.getMaxX() < right) {
                s.addOrUpdate(right, last);
            }
        }
    }

    /** A log axis with a labelled tick at each power of ten, spanning [lo, hi] rounded out to decades. */
    static LogAxis decades(String label, double lo, double hi) {
        LogAxis x = new LogAxis(label);
        x.setSmallestValue(lo);
        x.setTickUnit(new NumberTickUnit(1.0));
        x.setMinorTickCount(9);
        x.setMinorTickMarksVisible(true);
        x.setNumberFormatOverride(new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        double lower = Math.pow(10, Math.floor(Math.log10(lo) + 1e-9));
        double upper = Math.pow(10, Math.ceil(Math.log10(Math.max(hi, lo * 10)) - 1e-9));
        x.setRange(lower, upper);
        return x;
    }

    /** The smallest of 1, 2, 5 × 10^k ns that is at least {@code ns}. */
    static long niceBin(long ns) {
        long base = 1;
        while (true) {
            for (long m : new long[] {1, 2, 5}) {
                if (base * m >= ns) {
                    return base * m;
                }
            }
            base *= 10;
        }
    }

    private static ValueMarker marker(double x, String label) {
        ValueMarker m = new ValueMarker(x);
        m.setPaint(new Color(0x666666));
        m.setStroke(new BasicStroke(1.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        m.setLabel(label);
        m.setLabelFont(new java.awt.Font("DejaVu Sans", java.awt.Font.PLAIN, 12));
        m.setLabelPaint(new Color(0x444444));
        m.setLabelAnchor(RectangleAnchor.BOTTOM_RIGHT);
        m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
        m.setLabelOffset(new org.jfree.chart.ui.RectangleInsets(4, 4, 24, 4));
        return m;
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
