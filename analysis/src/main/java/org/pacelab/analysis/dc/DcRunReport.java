package org.pacelab.analysis.dc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.analysis.report.FigureFiles;

/**
 * Writes the outputs of one multi-flow run into a directory: {@code dc-summary.json}, {@code dc-timeline.csv}
 * (bytes per bin per flow and per path, and capacity), the figures as PNG and SVG ({@code dc-throughput},
 * {@code dc-path-a}, {@code dc-path-b}, {@code dc-fairness}) and {@code dc-report.html} showing them with the summary
 * table. Every file is written atomically.
 */
public final class DcRunReport {
    private DcRunReport() {}

    /** Files written, in order. */
    public static List<Path> write(DcRunData run, DcRunSummary summary, Path dir, long plotBinNanos) throws IOException {
        List<Path> files = new ArrayList<>();
        Path json = dir.resolve("dc-summary.json");
        DcSummaryJson.write(summary, json);
        files.add(json);
        Path csv = dir.resolve("dc-timeline.csv");
        AtomicFiles.writeText(csv, w -> {
            StringBuilder h = new StringBuilder("time_s");
            for (DcRunData.Flow f : run.flows()) h.append(",flow_").append(f.id()).append("_bytes");
            for (DcRunData.Path p : run.paths()) {
                h.append(",path_").append(p.name()).append("_bytes");
                for (DcRunData.Flow f : run.flows()) h.append(",path_").append(p.name()).append("_flow_").append(f.id()).append("_bytes");
                if (p.capacityBytes() != null) h.append(",path_").append(p.name()).append("_capacity_bytes");
            }
            w.write(h.append('\n').toString());
            int bins = 0;
            for (DcRunData.Flow f : run.flows()) bins = Math.max(bins, f.clientBytes().length);
            for (DcRunData.Path p : run.paths()) bins = Math.max(bins, p.bytes().length);
            for (int i = 0; i < bins; i++) {
                StringBuilder r = new StringBuilder(String.format(Locale.ROOT, "%.6f", i * run.binNanos() / 1e9));
                for (DcRunData.Flow f : run.flows()) r.append(',').append(at(f.clientBytes(), i));
                for (int k = 0; k < run.paths().size(); k++) {
                    DcRunData.Path p = run.paths().get(k);
                    r.append(',').append(at(p.bytes(), i));
                    for (DcRunData.Flow f : run.flows()) r.append(',').append(k < f.pathBytes().size() ? at(f.pathBytes().get(k), i) : 0);
                    if (p.capacityBytes() != null) {
                        r.append(',').append(String.format(Locale.ROOT, "%.1f", i < p.capacityBytes().length ? p.capacityBytes()[i] : 0.0));
                    }
                }
                w.write(r.append('\n').toString());
            }
        });
        files.add(csv);
        List<FigureFiles.Figure> figures = new ArrayList<>();
        figures.add(FigureFiles.write(DcFigures.throughput(run, plotBinNanos), dir, "dc-throughput"));
        for (int k = 0; k < run.paths().size(); k++) {
            figures.add(FigureFiles.write(DcFigures.pathUtilization(run, k, plotBinNanos), dir, "dc-path-" + run.paths().get(k).name()));
        }
        figures.add(FigureFiles.write(DcFigures.fairness(summary, run.binNanos()), dir, "dc-fairness"));
        for (FigureFiles.Figure f : figures) {
            files.add(f.png());
            files.add(f.svg());
        }
        Path html = dir.resolve("dc-report.html");
        AtomicFiles.writeString(html, html(summary, figures));
        files.add(html);
        return files;
    }

    /** The summary as a few lines of text for a terminal. */
    public static String text(DcRunSummary s) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "window %.1f-%.1f s: total %.2f Mbit/s, JFI %s (sliding %.0f s windows: mean %s, min %s)%n",
                s.windowStartS(), s.windowEndS(), s.throughputMbps(), f3(s.jfi()), s.jfiWindowS(), f3(s.jfiWindowMean()),
                f3(s.jfiWindowMin())));
        for (DcRunSummary.FlowResult f : s.flows()) {
            b.append(String.format(Locale.ROOT, "  %-16s %8.2f Mbit/s  %s", f.label(), f.throughputMbps(), shares(f.pathShare())));
            DcRunData.Reordering r = f.reordering();
            if (r != null) {
                b.append(String.format(Locale.ROOT, "  held %d, timer expiries %d, hold p50 %s ms p99 %s ms, %d duplicates, %d outdated",
                        r.held(), r.timerExpiries(), f1(r.holdP50Ms()), f1(r.holdP99Ms()), r.duplicates(), r.outdated()));
            }
            b.append('\n');
        }
        for (DcRunSummary.PathResult p : s.paths()) {
            b.append(String.format(Locale.ROOT, "  path %-11s %8.2f Mbit/s of %s Mbit/s (utilization %s), %d dropped, JFI of "
                            + "its flows %s%n", p.name(), p.throughputMbps(), f1(p.capacityMbps()), pct(p.utilization()), p.drops(),
                    f3(p.jfi())));
        }
        if (s.note() != null) b.append("  note: ").append(s.note()).append('\n');
        return b.toString();
    }

    private static String shares(double[] share) {
        if (share.length < 2 || Double.isNaN(share[0])) return "";
        return String.format(Locale.ROOT, "(path a %s, b %s)", pct(share[0]), pct(share[1]));
    }

    private static String html(DcRunSummary s, List<FigureFiles.Figure> figures) {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Dual connectivity run</title>"
                + "<style>body{font-family:sans-serif;max-width:960px;margin:auto}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th:first-child,td:first-child{text-align:left}</style>"
                + "</head><body>\n<h1>Dual connectivity run</h1>\n");
        b.append(String.format(Locale.ROOT, "<p>Window %.1f–%.1f s. Jain's fairness index %s (sliding %.0f s windows: mean %s, "
                        + "min %s). Total throughput %.2f Mbit/s.</p>\n", s.windowStartS(), s.windowEndS(), f3(s.jfi()),
                s.jfiWindowS(), f3(s.jfiWindowMean()), f3(s.jfiWindowMin()), s.throughputMbps()));
        b.append("<table><tr><th>flow</th><th>mode</th><th>Mbit/s</th><th>on path a</th><th>held</th><th>timer expiries</th>"
                + "<th>hold p50 ms</th><th>hold p99 ms</th><th>duplicates</th></tr>\n");
        for (DcRunSummary.FlowResult f : s.flows()) {
            DcRunData.Reordering r = f.reordering();
            b.append("<tr><td>").append(escape(f.label())).append("</td><td>").append(escape(f.mode())).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.2f", f.throughputMbps())).append("</td><td>")
                    .append(f.pathShare().length > 0 ? pct(f.pathShare()[0]) : "").append("</td><td>")
                    .append(r == null ? "" : r.held()).append("</td><td>").append(r == null ? "" : r.timerExpiries())
                    .append("</td><td>").append(r == null ? "" : f1(r.holdP50Ms())).append("</td><td>")
                    .append(r == null ? "" : f1(r.holdP99Ms())).append("</td><td>").append(r == null ? "" : r.duplicates())
                    .append("</td></tr>\n");
        }
        b.append("</table>\n<table><tr><th>path</th><th>Mbit/s</th><th>capacity Mbit/s</th><th>utilization</th><th>drops</th>"
                + "<th>JFI of its flows</th></tr>\n");
        for (DcRunSummary.PathResult p : s.paths()) {
            b.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.2f</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>%n",
                    escape(p.name()), p.throughputMbps(), f1(p.capacityMbps()), pct(p.utilization()), p.drops(), f3(p.jfi())));
        }
        b.append("</table>\n");
        if (s.note() != null) b.append("<p>Note: ").append(escape(s.note())).append("</p>\n");
        for (FigureFiles.Figure f : figures) b.append("<div>").append(f.svgElement()).append("</div>\n");
        return b.append("</body></html>\n").toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static long at(long[] v, int i) { return i < v.length ? v[i] : 0; }

    private static String f3(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v); }

    private static String f1(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v); }

    private static String pct(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * v); }
}
