package org.pacelab.lab.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.pacelab.analysis.dc.DcFigures;
import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.analysis.report.FigureFiles;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;
import org.pacelab.net.dc.SplitRatio;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

/**
 * The dual-connectivity part of a campaign report ({@code dc.html}, {@code dc-aggregate.json} and
 * {@code figures/dc-*}): per configuration the dual-connected flow's throughput, every flow's, the total, Jain's
 * fairness index, path utilization and reordering, as means over repetitions; and, when the campaign swept a
 * parameter, those against the parameter with one line per implementation (the study's "throughput vs parameter"
 * and "fairness vs parameter" figures).
 */
public final class DcCampaignReport {
    public static final String HTML = "dc.html";
    public static final String AGGREGATE = "dc-aggregate.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DcCampaignReport() {}

    /** One configuration's means over its repetitions (NaN when no run has the value). */
    public record Row(String name, String implementation, Map<String, String> sweep, int runs, double dcFlowMbps,
                      double dcFlowSd, Map<String, Double> flowMbps, double totalMbps, double jfi, double jfiSd,
                      double jfiWindowMean, double jfiPathA, double jfiPathB, double pathAUtilization,
                      double pathBUtilization, double reorderHeld, double timerExpiries, double holdP99Ms) {}

    /** What was written, and the table as text for a terminal. */
    public record Written(Path html, Path aggregateJson, List<Path> figures, List<Row> rows, String text) {}

    /** Writes the report when the campaign has dual-connectivity runs; null otherwise. */
    public static Written writeIfAny(ResultStore store, List<ResultStore.StoredConfiguration> configs, Path outDir, String title,
                                     List<String> notes) throws StoreException, IOException {
        List<Row> rows = new ArrayList<>();
        for (ResultStore.StoredConfiguration c : configs) {
            List<Summary> runs = new ArrayList<>();
            for (String key : c.runKeys()) {
                Summary s = store.summary(key);
                if (s.has(SummaryField.FLOWS)) runs.add(s);
            }
            if (runs.isEmpty()) continue;
            ResultStore.ConfigurationPoint p = store.point(c.id());
            rows.add(row(c.name(), p == null ? c.server() : p.implementation(), p == null ? Map.of() : p.sweep(), runs));
        }
        if (rows.isEmpty()) return null;
        String axis = sweptAxis(rows);
        List<FigureFiles.Figure> figures = new ArrayList<>();
        Path figureDir = outDir.resolve("figures");
        if (axis != null) {
            String label = axisLabel(axis);
            figures.add(FigureFiles.write(DcFigures.versusParameter("Throughput of the dual-connected flow", label,
                    "Throughput (Mbit/s)", series(rows, axis, Row::dcFlowMbps)), figureDir, "dc-throughput-vs-" + slug(axis)));
            figures.add(FigureFiles.write(DcFigures.versusParameter("Throughput of all flows together", label,
                    "Throughput (Mbit/s)", series(rows, axis, Row::totalMbps)), figureDir, "dc-total-vs-" + slug(axis)));
            figures.add(FigureFiles.write(DcFigures.versusParameter("Jain's fairness index", label, "Jain's fairness index",
                    series(rows, axis, Row::jfi)), figureDir, "dc-jfi-vs-" + slug(axis)));
        }
        Path html = outDir.resolve(HTML);
        AtomicFiles.writeString(html, html(title, notes, rows, axis, figures));
        Path json = outDir.resolve(AGGREGATE);
        AtomicFiles.writeString(json, JSON.writeValueAsString(aggregate(rows)) + "\n");
        List<Path> files = new ArrayList<>();
        for (FigureFiles.Figure f : figures) {
            files.add(f.png());
            files.add(f.svg());
        }
        return new Written(html, json, files, rows, text(rows));
    }

    static Row row(String name, String implementation, Map<String, String> sweep, List<Summary> runs) {
        Map<String, List<Double>> flows = new LinkedHashMap<>();
        for (Summary s : runs) {
            Object v = s.get(SummaryField.FLOW_MBPS);
            if (v == null) continue;
            Map<String, Integer> seen = new LinkedHashMap<>();
            for (String part : v.toString().split("\\s+")) {
                int eq = part.indexOf('=');
                if (eq <= 0) continue;
                String mode = part.substring(0, eq);
                int k = seen.merge(mode, 1, Integer::sum);
                String key = k == 1 ? mode : mode + k;
                try {
                    flows.computeIfAbsent(key, x -> new ArrayList<>()).add(Double.parseDouble(part.substring(eq + 1)));
                } catch (NumberFormatException e) {
                    // a value that is not a number is left out of the mean
                }
            }
        }
        Map<String, Double> flowMeans = new LinkedHashMap<>();
        flows.forEach((k, list) -> flowMeans.put(k, list.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN)));
        return new Row(name, implementation, sweep, runs.size(), mean(runs, SummaryField.DC_FLOW_MBPS),
                sd(runs, SummaryField.DC_FLOW_MBPS), flowMeans, mean(runs, SummaryField.TOTAL_MBPS), mean(runs, SummaryField.JFI),
                sd(runs, SummaryField.JFI), mean(runs, SummaryField.JFI_WINDOW_MEAN), mean(runs, SummaryField.JFI_PATH_A),
                mean(runs, SummaryField.JFI_PATH_B), mean(runs, SummaryField.PATH_A_UTILIZATION),
                mean(runs, SummaryField.PATH_B_UTILIZATION), mean(runs, SummaryField.REORDER_HELD),
                mean(runs, SummaryField.REORDER_TIMER_EXPIRIES), mean(runs, SummaryField.REORDER_HOLD_P99_MS));
    }

    /** The first sweep key whose value differs between rows, or null. */
    static String sweptAxis(List<Row> rows) {
        for (String key : rows.getFirst().sweep().keySet()) {
            long distinct = rows.stream().map(r -> r.sweep().get(key)).distinct().count();
            if (distinct > 1) return key;
        }
        return null;
    }

    /** A number for the x axis: batch sizes as they are, ratios as the share of path a in %, rates in Mbit/s, times in ms. */
    static double x(String axis, String value) {
        if (value == null) return Double.NaN;
        String v = value.strip();
        try {
            return Double.parseDouble(v.endsWith("p") ? v.substring(0, v.length() - 1) : v);
        } catch (NumberFormatException e) {
            // not a plain number
        }
        try {
            int colon = v.indexOf(':');
            if ((axis.equals("rate") || axis.equals("delay")) && colon > 0) {
                double a = axis.equals("rate") ? Units.parseRate(axis, v.substring(0, colon)) : Units.parseDuration(axis, v.substring(0, colon));
                double b = axis.equals("rate") ? Units.parseRate(axis, v.substring(colon + 1)) : Units.parseDuration(axis, v.substring(colon + 1));
                return b > 0 ? a / b : Double.NaN;
            }
            if (axis.equals("loss") && colon > 0) return 100 * Units.parseProbability(axis, v.substring(0, colon));
            if (axis.endsWith("ratio")) return 100 * SplitRatio.parse(axis, v).shareA();
            if (axis.endsWith("rate")) return Units.parseRate(axis, v) / 1e6;
            if (axis.endsWith("delay") || axis.endsWith("t-reordering")) return Units.parseDuration(axis, v) / 1e6;
            if (axis.endsWith("loss")) return 100 * Units.parseProbability(axis, v);
        } catch (SpecException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }

    static String axisLabel(String axis) {
        if (axis.equals("rate")) return "bandwidth ratio (path a / path b)";
        if (axis.equals("delay")) return "delay ratio (path a / path b)";
        if (axis.endsWith("ratio")) return axis + " (share of path a, %)";
        if (axis.endsWith("rate")) return axis + " (Mbit/s)";
        if (axis.endsWith("delay") || axis.endsWith("t-reordering")) return axis + " (ms)";
        if (axis.endsWith("loss")) return axis + " (%" + (axis.equals("loss") ? ", path a" : "") + ")";
        if (axis.equals("batch")) return "batch size (packets)";
        return axis;
    }

    private static List<DcFigures.SweepSeries> series(List<Row> rows, String axis, java.util.function.ToDoubleFunction<Row> y) {
        Map<String, List<Row>> bySeries = new LinkedHashMap<>();
        for (Row r : rows) {
            StringBuilder name = new StringBuilder(r.implementation());
            r.sweep().forEach((k, v) -> { if (!k.equals(axis)) name.append(' ').append(k).append('=').append(v); });
            bySeries.computeIfAbsent(name.toString(), k -> new ArrayList<>()).add(r);
        }
        List<DcFigures.SweepSeries> out = new ArrayList<>();
        bySeries.forEach((name, list) -> {
            double[] xs = new double[list.size()], ys = new double[list.size()];
            for (int i = 0; i < list.size(); i++) {
                xs[i] = x(axis, list.get(i).sweep().get(axis));
                ys[i] = y.applyAsDouble(list.get(i));
            }
            out.add(new DcFigures.SweepSeries(name, xs, ys));
        });
        return out;
    }

    private static double mean(List<Summary> runs, SummaryField f) {
        return runs.stream().mapToDouble(s -> s.number(f)).filter(Double::isFinite).average().orElse(Double.NaN);
    }

    private static double sd(List<Summary> runs, SummaryField f) {
        double[] v = runs.stream().mapToDouble(s -> s.number(f)).filter(Double::isFinite).toArray();
        if (v.length == 0) return Double.NaN;
        double m = java.util.Arrays.stream(v).average().orElse(0), ss = 0;
        for (double x : v) ss += (x - m) * (x - m);
        return Math.sqrt(ss / v.length);
    }

    private static ObjectNode aggregate(List<Row> rows) {
        ObjectNode o = JSON.createObjectNode();
        ArrayNode a = o.putArray("configurations");
        for (Row r : rows) {
            ObjectNode j = a.addObject();
            j.put("name", r.name());
            j.put("implementation", r.implementation());
            ObjectNode sw = j.putObject("sweep");
            r.sweep().forEach(sw::put);
            j.put("runs", r.runs());
            num(j, "dc_flow_mbps_mean", r.dcFlowMbps());
            num(j, "dc_flow_mbps_std", r.dcFlowSd());
            ObjectNode fl = j.putObject("flow_mbps_mean");
            r.flowMbps().forEach((k, v) -> num(fl, k, v));
            num(j, "total_mbps_mean", r.totalMbps());
            num(j, "jfi_mean", r.jfi());
            num(j, "jfi_std", r.jfiSd());
            num(j, "jfi_window_mean_mean", r.jfiWindowMean());
            num(j, "jfi_path_a_mean", r.jfiPathA());
            num(j, "jfi_path_b_mean", r.jfiPathB());
            num(j, "path_a_utilization_mean", r.pathAUtilization());
            num(j, "path_b_utilization_mean", r.pathBUtilization());
            num(j, "reorder_held_mean", r.reorderHeld());
            num(j, "reorder_timer_expiries_mean", r.timerExpiries());
            num(j, "reorder_hold_p99_ms_mean", r.holdP99Ms());
        }
        return o;
    }

    private static void num(ObjectNode o, String k, double v) {
        if (Double.isFinite(v)) o.put(k, v); else o.putNull(k);
    }

    static String text(List<Row> rows) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-40s %5s %12s %-28s %9s %7s %6s %6s %8s%n",
                "dual connectivity", "runs", "dc Mbit/s", "per flow Mbit/s", "total", "JFI", "util a", "util b", "held"));
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "%-40s %5d %12s %-28s %9s %7s %6s %6s %8s%n", cut(r.name(), 40), r.runs(),
                    f2(r.dcFlowMbps()) + (Double.isNaN(r.dcFlowSd()) || r.runs() < 2 ? "" : "±" + f1(r.dcFlowSd())),
                    cut(flows(r.flowMbps()), 28), f2(r.totalMbps()), f3(r.jfi()), pct(r.pathAUtilization()),
                    pct(r.pathBUtilization()), Double.isNaN(r.reorderHeld()) ? "n/a" : String.format(Locale.ROOT, "%.0f", r.reorderHeld())));
        }
        return b.toString();
    }

    private static String html(String title, List<String> notes, List<Row> rows, String axis, List<FigureFiles.Figure> figures) {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
                .append(esc(title)).append(" — dual connectivity</title><style>body{font-family:sans-serif;max-width:1100px;"
                        + "margin:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                        + "td:first-child,th:first-child,td:nth-child(2){text-align:left}</style></head><body>\n");
        b.append("<h1>").append(esc(title)).append("</h1>\n<h2>Dual connectivity: throughput and fairness</h2>\n");
        for (String n : notes) b.append("<p>").append(esc(n)).append("</p>\n");
        b.append("<p>Means over repetitions. Throughput is measured at the clients (bytes the reordering receiver released) "
                + "over the window in which every flow was active; Jain's fairness index J = (Σx)² / (n·Σx²) of the flows' "
                + "mean throughputs (in the fairness setup, one dual-connected flow and one single-path flow per path, J is at "
                + "most 0.889 when each path is split evenly: the dual-connected flow then gets twice a single flow's rate); "
                + "\"JFI on a/b\" is the index of the flows sharing that path, 1 when they split it evenly; utilization is what "
                + "a path carried over what its rate or trace allowed.</p>\n");
        b.append("<table><tr><th>configuration</th><th>implementation</th><th>runs</th><th>dc flow Mbit/s</th>"
                + "<th>per flow Mbit/s</th><th>total Mbit/s</th><th>JFI</th><th>JFI (10 s windows)</th><th>JFI on a</th>"
                + "<th>JFI on b</th><th>util a</th>"
                + "<th>util b</th><th>held</th><th>timer expiries</th><th>hold p99 ms</th></tr>\n");
        for (Row r : rows) {
            b.append("<tr><td>").append(esc(r.name())).append("</td><td>").append(esc(r.implementation())).append("</td><td>")
                    .append(r.runs()).append("</td><td>").append(f2(r.dcFlowMbps()))
                    .append(Double.isNaN(r.dcFlowSd()) || r.runs() < 2 ? "" : " ± " + f2(r.dcFlowSd())).append("</td><td>")
                    .append(esc(flows(r.flowMbps()))).append("</td><td>").append(f2(r.totalMbps())).append("</td><td>")
                    .append(f3(r.jfi())).append(Double.isNaN(r.jfiSd()) || r.runs() < 2 ? "" : " ± " + f3(r.jfiSd()))
                    .append("</td><td>").append(f3(r.jfiWindowMean())).append("</td><td>").append(f3(r.jfiPathA()))
                    .append("</td><td>").append(f3(r.jfiPathB())).append("</td><td>").append(pct(r.pathAUtilization()))
                    .append("</td><td>").append(pct(r.pathBUtilization())).append("</td><td>").append(f0(r.reorderHeld()))
                    .append("</td><td>").append(f0(r.timerExpiries())).append("</td><td>").append(f1(r.holdP99Ms()))
                    .append("</td></tr>\n");
        }
        b.append("</table>\n");
        if (axis == null && rows.size() > 1) b.append("<p>No parameter was swept, so there is no plot against one.</p>\n");
        for (FigureFiles.Figure f : figures) b.append("<div>").append(f.svgElement()).append("</div>\n");
        return b.append("</body></html>\n").toString();
    }

    private static String flows(Map<String, Double> m) {
        List<String> parts = new ArrayList<>();
        m.forEach((k, v) -> parts.add(k + " " + f2(v)));
        return String.join(", ", parts);
    }

    private static String slug(String s) { return s.replaceAll("[^A-Za-z0-9]+", "-"); }

    private static String cut(String s, int n) { return s.length() <= n ? s : s.substring(0, n - 1) + "…"; }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String f0(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f", v); }

    private static String f1(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v); }

    private static String f2(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.2f", v); }

    private static String f3(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v); }

    private static String pct(double v) { return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * v); }
}
