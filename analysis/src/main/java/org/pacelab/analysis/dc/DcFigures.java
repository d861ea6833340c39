package org.pacelab.analysis.dc;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StackedXYAreaRenderer2;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.DefaultTableXYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import org.pacelab.analysis.report.ChartStyle;

/**
 * The figures of a multi-flow run, drawn with JFreeChart: per-flow throughput over time, each path's throughput
 * split by flow against its capacity (the dual-connectivity study's per-path utilization, its Figures 4b/4c), and
 * Jain's fairness index over sliding windows. Times on the x axis are seconds on the run's clock; rates are averaged
 * over {@code plotBinNanos} (a multiple of the data's bins) so that short bins do not turn the lines into noise.
 */
public final class DcFigures {
    private DcFigures() {}

    /** Per-flow throughput (Mbit/s) over time. */
    public static JFreeChart throughput(DcRunData run, long plotBinNanos) {
        int k = factor(run, plotBinNanos);
        double binS = run.binNanos() * k / 1e9;
        XYSeriesCollection data = new XYSeriesCollection();
        for (DcRunData.Flow f : run.flows()) {
            XYSeries s = new XYSeries(f.label(), false, true);
            double[] mbps = rebin(f.clientBytes(), k, binS);
            for (int i = 0; i < mbps.length; i++) s.add(i * binS, mbps[i]);
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Throughput per flow", "Time (s)", "Throughput (Mbit/s)", data,
                PlotOrientation.VERTICAL, true, false, false);
        return ChartStyle.apply(chart);
    }

    /**
     * One path: the bytes leaving its rate limiter per flow, stacked, in Mbit/s, with its capacity as a dashed line
     * (when known) — how much of the path each flow used and how much stayed idle.
     */
    public static JFreeChart pathUtilization(DcRunData run, int pathIndex, long plotBinNanos) {
        int k = factor(run, plotBinNanos);
        double binS = run.binNanos() * k / 1e9;
        DcRunData.Path path = run.paths().get(pathIndex);
        DefaultTableXYDataset stacked = new DefaultTableXYDataset();
        int n = (path.bytes().length + k - 1) / k;
        for (DcRunData.Flow f : run.flows()) {
            long[] mine = pathIndex < f.pathBytes().size() ? f.pathBytes().get(pathIndex) : new long[0];
            XYSeries s = new XYSeries(f.label(), false, false);
            double[] mbps = rebin(mine, k, binS);
            for (int i = 0; i < n; i++) s.add(i * binS, i < mbps.length ? mbps[i] : 0.0);
            stacked.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Path " + path.name() + ": throughput by flow"
                        + (path.capacityBytes() != null ? " and capacity" : ""), "Time (s)", "Throughput (Mbit/s)", stacked,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRenderer(new StackedXYAreaRenderer2());
        ChartStyle.apply(chart);
        if (path.capacityBytes() != null) {
            XYSeriesCollection cap = new XYSeriesCollection();
            XYSeries c = new XYSeries("capacity", false, true);
            double[] capacity = rebin(path.capacityBytes(), k, binS);
            for (int i = 0; i < Math.min(n, capacity.length); i++) c.add(i * binS, capacity[i]);
            cap.addSeries(c);
            XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
            r.setSeriesPaint(0, Color.BLACK);
            r.setSeriesStroke(0, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            plot.setRenderer(1, r); // before the dataset: the stacked renderer cannot measure a plain collection
            plot.setDataset(1, cap);
        }
        ((NumberAxis) plot.getRangeAxis()).setAutoRangeIncludesZero(true);
        return chart;
    }

    /** Jain's fairness index over sliding windows, starting at the measurement window's start. */
    public static JFreeChart fairness(DcRunSummary summary, long binNanos) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYSeries s = new XYSeries("JFI over " + fmt(summary.jfiWindowS()) + " s windows", false, true);
        double binS = binNanos / 1e9;
        double[] v = summary.jfiSeries();
        for (int i = 0; i < v.length; i++) {
            if (!Double.isNaN(v[i])) s.add(summary.windowStartS() + summary.jfiWindowS() + i * binS, v[i]);
        }
        data.addSeries(s);
        JFreeChart chart = ChartFactory.createXYLineChart("Jain's fairness index over time (whole window: "
                        + fmt(summary.jfi()) + ")", "Time at the window's end (s)", "Jain's fairness index", data,
                PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.apply(chart);
        int n = Math.max(1, summary.flows().size());
        ((NumberAxis) chart.getXYPlot().getRangeAxis()).setRange(Math.max(0, 1.0 / n - 0.05), 1.02);
        return chart;
    }

    /**
     * A measure against a swept parameter, one line per series (e.g. implementation), with an optional note on the
     * plot (e.g. the study's qualitative finding).
     */
    public static JFreeChart versusParameter(String title, String parameter, String measure, List<SweepSeries> series) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (SweepSeries ss : series) {
            XYSeries s = new XYSeries(ss.name(), true, true);
            for (int i = 0; i < ss.x().length; i++) if (!Double.isNaN(ss.y()[i])) s.add(ss.x()[i], ss.y()[i]);
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, parameter, measure, data, PlotOrientation.VERTICAL, true,
                false, false);
        ChartStyle.apply(chart);
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < series.size(); i++) {
            r.setSeriesPaint(i, ChartStyle.colour(i));
            r.setSeriesStroke(i, new BasicStroke(2.0f));
        }
        chart.getXYPlot().setRenderer(r);
        ((NumberAxis) chart.getXYPlot().getRangeAxis()).setAutoRangeIncludesZero(true);
        return chart;
    }

    /** One line of a parameter sweep: x values and the measure at each. */
    public record SweepSeries(String name, double[] x, double[] y) { }

    private static int factor(DcRunData run, long plotBinNanos) {
        return (int) Math.max(1, plotBinNanos / run.binNanos());
    }

    /** Sums {@code k} bins into one and converts bytes to Mbit/s (a last, partial group is averaged over its own bins). */
    private static double[] rebin(long[] bytes, int k, double binS) {
        double[] d = new double[bytes.length];
        for (int i = 0; i < bytes.length; i++) d[i] = bytes[i];
        return rebin(d, k, binS);
    }

    private static double[] rebin(double[] bytes, int k, double binS) {
        double[] out = new double[(bytes.length + k - 1) / k];
        for (int i = 0; i < bytes.length; i++) out[i / k] += bytes[i];
        for (int i = 0; i < out.length; i++) {
            int covered = Math.min(k, bytes.length - i * k);
            out[i] = out[i] * 8 / (binS * covered / k) / 1e6;
        }
        return out;
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(java.util.Locale.ROOT, "%.3g", v);
    }
}
