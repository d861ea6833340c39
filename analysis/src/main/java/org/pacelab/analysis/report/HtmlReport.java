package org.pacelab.analysis.report;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.metrics.RunningStats;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryText;

import static org.pacelab.analysis.summary.SummaryField.*;

/**
 * The self-contained HTML page: the goodput/drops table with mean ± population std per configuration (the study's
 * Tables 1–2), the figures inlined as SVG, a per-run table and the reasons for every value that is missing.
 * Every number cell carries its exact value in {@code data-value} (or {@code data-mean}/{@code data-std}).
 */
final class HtmlReport {
    /** Columns of the configuration table, as in the study's tables plus precision and trains. */
    static final List<SummaryField> TABLE = List.of(GOODPUT_APP_MBPS, GOODPUT_WALL_MBPS, GOODPUT_WIRE_MBPS, DROPS,
            RETRANSMISSIONS, PRECISION_US, PTL1_SHARE, PTL_LE5_SHARE, IPG_P50_US);
    static final List<SummaryField> RUN_TABLE = List.of(PROTOCOL, PACKETS, SERVER_1RTT_PACKETS, PN_RECOVERED,
            GOODPUT_APP_MBPS, GOODPUT_WALL_MBPS, GOODPUT_WIRE_MBPS, DROPS, RETRANSMISSIONS, PRECISION_US,
            PRECISION_MATCHED_SHARE, PTL1_SHARE, IPG_P50_US, CAPTURE_TRUNCATED);

    private HtmlReport() {}

    static String page(String title, String generated, List<String> notes, List<ConfigurationRuns> runs, List<ConfigurationAggregate> aggs,
                       Map<String, FigureFiles.Figure> figures, Map<String, String> missingFigures) {
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(esc(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        h.append("<h1>").append(esc(title)).append("</h1>\n");
        h.append("<p class=\"meta\">Generated ").append(esc(generated)).append(" by pacelab from ")
                .append(aggs.stream().mapToInt(ConfigurationAggregate::runs).sum()).append(" run(s) in ")
                .append(aggs.size()).append(" configuration(s). Values are mean ± population standard deviation over ")
                .append("the runs; a cell shows n=k/N when only k of N runs have the value.</p>\n");
        if (!notes.isEmpty()) {
            h.append("<ul class=\"notes\">\n");
            for (String n : notes) {
                h.append("<li>").append(esc(n)).append("</li>\n");
            }
            h.append("</ul>\n");
        }
        configurationTable(h, runs, aggs);
        h.append("<h2>Figures</h2>\n");
        figure(h, "ipg-cdf", "Inter-packet gaps of the server's packets, pooled over each configuration's runs.",
                figures, missingFigures);
        figure(h, "train-length-cdf", "Packet-train lengths counted per packet: a train of n packets contributes n "
                + "samples of value n (a gap below the threshold continues a train).", figures, missingFigures);
        figure(h, "cwnd-timeline", "The server's congestion window from its qlog, for the first run of each "
                + "configuration that has one.", figures, missingFigures);
        figure(h, "precision-histogram", "Distribution of wire time minus intended send time (packets matched by "
                + "packet number between capture and qlog); pacing precision is its standard deviation.", figures,
                missingFigures);
        h.append("<h2>Runs</h2>\n");
        for (ConfigurationRuns c : runs) {
            runTable(h, c);
        }
        h.append("</body>\n</html>\n");
        return h.toString();
    }

    private static void configurationTable(StringBuilder h, List<ConfigurationRuns> runs, List<ConfigurationAggregate> aggs) {
        h.append("<h2>Goodput, drops and pacing per configuration</h2>\n<div class=\"scroll\"><table id=\"configurations\">\n<thead><tr>")
                .append("<th>Configuration</th><th>Runs</th>");
        for (SummaryField f : TABLE) {
            h.append("<th title=\"").append(esc(f.description())).append("\">").append(esc(label(f))).append("</th>");
        }
        h.append("</tr></thead>\n<tbody>\n");
        for (int i = 0; i < aggs.size(); i++) {
            ConfigurationAggregate a = aggs.get(i);
            h.append("<tr data-configuration=\"").append(esc(a.name())).append("\"><th>").append(esc(a.name()))
                    .append("</th><td class=\"num\">").append(a.runs()).append("</td>");
            for (SummaryField f : TABLE) {
                RunningStats s = a.stats(f);
                h.append("<td class=\"num\" data-field=\"").append(f.jsonName()).append('"');
                if (s.count() == 0) {
                    h.append(" title=\"").append(esc(AggregateJson.firstReason(runs.get(i), f))).append("\">n/a</td>");
                    continue;
                }
                h.append(" data-mean=\"").append(s.mean()).append("\" data-std=\"").append(s.populationStd())
                        .append("\" data-n=\"").append(s.count()).append("\">")
                        .append(meanStd(s.mean(), s.populationStd()));
                if (s.count() < a.runs()) {
                    h.append(" <span class=\"n\">n=").append(s.count()).append('/').append(a.runs()).append("</span>");
                }
                h.append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table></div>\n");
        missingNotes(h, runs, aggs);
    }

    /** The text a cell shows for mean ± std (4 significant digits each). */
    static String meanStd(double mean, double std) {
        return SummaryText.formatNumber(mean) + " ± " + SummaryText.formatNumber(std);
    }

    private static void missingNotes(StringBuilder h, List<ConfigurationRuns> runs, List<ConfigurationAggregate> aggs) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < aggs.size(); i++) {
            for (SummaryField f : TABLE) {
                if (aggs.get(i).stats(f).count() == 0) {
                    list.append("<li><b>").append(esc(aggs.get(i).name())).append("</b>, ").append(esc(label(f)))
                            .append(": ").append(esc(AggregateJson.firstReason(runs.get(i), f))).append("</li>\n");
                }
            }
        }
        if (!list.isEmpty()) {
            h.append("<details class=\"missing\"><summary>Why some values are n/a</summary><ul>\n").append(list)
                    .append("</ul></details>\n");
        }
    }

    private static void figure(StringBuilder h, String name, String caption, Map<String, FigureFiles.Figure> figures,
                               Map<String, String> missing) {
        FigureFiles.Figure f = figures.get(name);
        if (f == null) {
            h.append("<p class=\"missing-figure\" id=\"").append(name).append("\">Figure ").append(esc(name))
                    .append(" not drawn: ").append(esc(missing.getOrDefault(name, "no data"))).append("</p>\n");
            return;
        }
        h.append("<figure id=\"").append(name).append("\">\n").append(f.svgElement()).append("\n<figcaption>")
                .append(esc(caption)).append(" Files: <a href=\"figures/").append(name).append(".png\">PNG</a>, ")
                .append("<a href=\"figures/").append(name).append(".svg\">SVG</a>.</figcaption>\n</figure>\n");
    }

    private static void runTable(StringBuilder h, ConfigurationRuns c) {
        h.append("<h3>").append(esc(c.name())).append("</h3>\n<div class=\"scroll\"><table class=\"runs\" data-configuration=\"")
                .append(esc(c.name())).append("\">\n<thead><tr><th>Run</th>");
        for (SummaryField f : RUN_TABLE) {
            h.append("<th title=\"").append(esc(f.description())).append("\">").append(esc(label(f))).append("</th>");
        }
        h.append("</tr></thead>\n<tbody>\n");
        Set<String> notes = new LinkedHashSet<>();
        for (RunResult r : c.runs()) {
            Summary s = r.summary();
            h.append("<tr data-run=\"").append(esc(r.runId())).append("\"><th>").append(esc(r.runId())).append("</th>");
            for (SummaryField f : RUN_TABLE) {
                Object v = s.get(f);
                h.append("<td class=\"num\" data-field=\"").append(f.jsonName()).append('"');
                if (v == null) {
                    String reason = s.reason(f);
                    h.append(reason == null ? "" : " title=\"" + esc(reason) + "\"").append(">n/a</td>");
                } else if (v instanceof Double d) {
                    h.append(" data-value=\"").append(d).append("\">").append(SummaryText.formatNumber(d)).append("</td>");
                } else {
                    h.append(" data-value=\"").append(esc(v.toString())).append("\">").append(esc(v.toString())).append("</td>");
                }
            }
            h.append("</tr>\n");
            if (s.string(NOTES) != null) {
                notes.add(r.runId() + ": " + s.string(NOTES));
            }
            if (s.string(CAPTURE_TRUNCATION) != null) {
                notes.add(r.runId() + ": capture truncated — " + s.string(CAPTURE_TRUNCATION));
            }
        }
        h.append("</tbody>\n</table></div>\n");
        if (!notes.isEmpty()) {
            h.append("<ul class=\"notes\">\n");
            notes.forEach(n -> h.append("<li>").append(esc(n)).append("</li>\n"));
            h.append("</ul>\n");
        }
    }

    /** Column label with unit. */
    static String label(SummaryField f) {
        String unit = switch (f.unit()) {
            case "" -> "";
            case "us" -> " (µs)";
            default -> " (" + f.unit() + ")";
        };
        String name = switch (f) {
            case GOODPUT_APP_MBPS -> "Goodput, app";
            case GOODPUT_WALL_MBPS -> "Goodput, wall time";
            case GOODPUT_WIRE_MBPS -> "Goodput, wire";
            case DROPS -> "Drops";
            case RETRANSMISSIONS -> "Retransmissions";
            case PRECISION_US -> "Pacing precision";
            case PRECISION_MATCHED_SHARE -> "Matched share";
            case PTL1_SHARE -> "Packets in trains of 1";
            case PTL_LE5_SHARE -> "Packets in trains ≤ 5";
            case IPG_P50_US -> "Median gap";
            case IPG_LT_THRESHOLD_SHARE -> "Gaps < threshold";
            case SERVER_1RTT_PACKETS -> "Server 1-RTT packets";
            case PN_RECOVERED -> "PN recovered";
            case CAPTURE_TRUNCATED -> "Truncated";
            default -> f.jsonName().replace('_', ' ');
        };
        return (name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1)) + unit;
    }

    static String esc(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static final String CSS = """
            body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em auto; max-width: 1250px; padding: 0 1em; color: #222; }
            .scroll { overflow-x: auto; }
            h1 { font-size: 1.6em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ccc; }
            .meta { color: #555; }
            table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.92em; }
            th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; }
            thead th { background: #f2f2f2; vertical-align: bottom; font-weight: 600; font-size: 0.9em; }
            tbody th { text-align: left; background: #fafafa; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            td[title] { cursor: help; }
            .n { color: #777; font-size: 0.85em; }
            figure { margin: 1.5em 0; } figure svg { max-width: 100%; height: auto; }
            figcaption { color: #444; font-size: 0.92em; }
            .missing-figure { color: #8a4b00; }
            ul.notes { color: #555; font-size: 0.88em; }
            """;
}
