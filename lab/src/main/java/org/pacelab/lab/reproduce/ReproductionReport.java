package org.pacelab.lab.reproduce;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.lab.reproduce.ClaimRow.Verdict;

/**
 * Writes a reproduction report as Markdown ({@code report.md}) and as a self-contained HTML page
 * ({@code report.html}), both atomically: the study, how the values were obtained, the conditions of the run, one
 * table row per claim and mode (the study's value, pacelab's mean ± std with n, mode and configuration, the
 * difference and the verdict), then for each row that differs or cannot be measured the measured reason, and the
 * campaigns behind the numbers.
 */
public final class ReproductionReport {
    public static final String MARKDOWN = "report.md";
    public static final String HTML = "report.html";

    private ReproductionReport() {}

    /**
     * What the report says besides the rows.
     *
     * @param command    the command line that produced it
     * @param header     lines about the run: date, pacelab version, machine, host set-up, load
     * @param campaigns  one line per campaign: scenario, directory, what ran and what was left out
     */
    public record Context(String command, List<String> header, List<String> campaigns) {}

    /** The counts of verdicts over the rows. */
    public static Map<Verdict, Integer> counts(List<ClaimRow> rows) {
        Map<Verdict, Integer> m = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            m.put(v, 0);
        }
        rows.forEach(r -> m.merge(r.verdict(), 1, Integer::sum));
        return m;
    }

    public static void write(Path dir, StudyReference ref, List<ClaimRow> rows, Context ctx) throws IOException {
        AtomicFiles.writeString(dir.resolve(MARKDOWN), markdown(ref, rows, ctx));
        AtomicFiles.writeString(dir.resolve(HTML), html(ref, rows, ctx));
    }

    static String markdown(StudyReference ref, List<ClaimRow> rows, Context ctx) {
        StringBuilder b = new StringBuilder();
        b.append("# Reproduction: ").append(ref.title()).append("\n\n");
        b.append(ref.citation()).append("\n\n");
        if (!ref.valuesFrom().isBlank()) {
            b.append("Published values: ").append(ref.valuesFrom()).append(" (reference file `").append(ref.file().getFileName())
                    .append("`).\n\n");
        }
        b.append("Command: `").append(ctx.command()).append("`\n\n");
        for (String h : ctx.header()) {
            b.append("- ").append(h).append('\n');
        }
        Map<Verdict, Integer> n = counts(rows);
        b.append("- Verdicts: ").append(n.get(Verdict.REPRODUCED)).append(" reproduced, ").append(n.get(Verdict.DIFFERS))
                .append(" differ, ").append(n.get(Verdict.CANNOT_MEASURE)).append(" cannot be measured here (")
                .append(rows.size()).append(" rows for ").append(ref.claims().size()).append(" claims)\n\n");
        b.append(RULES).append("\n\n");
        b.append("| Claim | Source | Study | pacelab | Difference | Verdict |\n|---|---|---|---|---|---|\n");
        for (ClaimRow r : rows) {
            b.append("| ").append(md(r.claim().id())).append(" — ").append(md(r.claim().says()))
                    .append(" | ").append(md(r.claim().source()))
                    .append(" | ").append(md(r.study()))
                    .append(" | ").append(md(r.pacelab()))
                    .append(" | ").append(md(r.difference()))
                    .append(" | ").append(r.verdict().word()).append(r.mode().equals("–") ? "" : " (" + r.mode() + ")")
                    .append(" |\n");
        }
        List<ClaimRow> explained = rows.stream().filter(r -> r.verdict() != Verdict.REPRODUCED || !r.conditions().isEmpty()).toList();
        if (!explained.isEmpty()) {
            b.append("\n## Reasons and conditions\n\n");
            for (ClaimRow r : explained) {
                b.append("- **").append(md(r.claim().id())).append("** (").append(r.mode()).append(", ").append(r.verdict().word())
                        .append(")");
                if (!r.reason().isBlank() && r.verdict() != Verdict.CANNOT_MEASURE) {
                    b.append(": ").append(r.reason().strip());
                } else if (r.verdict() == Verdict.CANNOT_MEASURE) {
                    b.append(": ").append(r.reason().strip());
                }
                if (!r.conditions().isBlank()) {
                    b.append(" — measured at ").append(r.conditions());
                }
                b.append('\n');
            }
        }
        b.append("\n## Campaigns\n\n");
        for (String c : ctx.campaigns()) {
            b.append("- ").append(c).append('\n');
        }
        return b.toString();
    }

    static final String RULES = "A value agrees when pacelab's mean lies within the claim's stated tolerance of the published "
            + "mean; a bound when the mean is on its side; a relation when pacelab's two configurations are ordered as the "
            + "study's, more than 5 % apart; a ratio when pacelab's ratio is within the tolerance of the study's; an optimum when pacelab's best "
            + "sweep value lies in the published range; a trend when every step along the sweep goes the published way (or "
            + "stays within 1 %). Means and population standard deviations are over the finished repetitions (n).";

    private static String md(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    static String html(StudyReference ref, List<ClaimRow> rows, Context ctx) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reproduction: ").append(h(ref.title()))
                .append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:90em}table{border-collapse:collapse}"
                        + "td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;font-size:90%}th{background:#f0f0f0}"
                        + ".reproduced{background:#e3f5e1}.differs{background:#fde8e4}.cannot{background:#eeeeee}"
                        + ".why{color:#444;font-size:85%}</style></head><body>\n");
        b.append("<h1>Reproduction: ").append(h(ref.title())).append("</h1>\n<p>").append(h(ref.citation())).append("</p>\n");
        if (!ref.valuesFrom().isBlank()) {
            b.append("<p>Published values: ").append(h(ref.valuesFrom())).append("</p>\n");
        }
        b.append("<p>Command: <code>").append(h(ctx.command())).append("</code></p>\n<ul>\n");
        for (String line : ctx.header()) {
            b.append("<li>").append(h(line)).append("</li>\n");
        }
        Map<Verdict, Integer> n = counts(rows);
        b.append("<li>Verdicts: ").append(n.get(Verdict.REPRODUCED)).append(" reproduced, ").append(n.get(Verdict.DIFFERS))
                .append(" differ, ").append(n.get(Verdict.CANNOT_MEASURE)).append(" cannot be measured here</li>\n</ul>\n");
        b.append("<p>").append(h(RULES)).append("</p>\n");
        b.append("<table><tr><th>Claim</th><th>Source</th><th>Study</th><th>pacelab</th><th>Difference</th><th>Verdict</th></tr>\n");
        for (ClaimRow r : rows) {
            String cls = switch (r.verdict()) {
                case REPRODUCED -> "reproduced";
                case DIFFERS -> "differs";
                case CANNOT_MEASURE -> "cannot";
            };
            b.append("<tr class=\"").append(cls).append("\"><td><b>").append(h(r.claim().id())).append("</b><br>")
                    .append(h(r.claim().says())).append("</td><td>").append(h(r.claim().source())).append("</td><td>")
                    .append(h(r.study())).append("</td><td>").append(h(r.pacelab()));
            if (!r.conditions().isBlank()) {
                b.append("<div class=\"why\">").append(h(r.conditions())).append("</div>");
            }
            b.append("</td><td>").append(h(r.difference())).append("</td><td>").append(h(r.verdict().word()))
                    .append(r.mode().equals("–") ? "" : " (" + h(r.mode()) + ")");
            if (!r.reason().isBlank() && r.verdict() == Verdict.DIFFERS) {
                b.append("<div class=\"why\">").append(h(r.reason())).append("</div>");
            }
            b.append("</td></tr>\n");
        }
        b.append("</table>\n<h2>Campaigns</h2>\n<ul>\n");
        for (String c : ctx.campaigns()) {
            b.append("<li>").append(h(c)).append("</li>\n");
        }
        b.append("</ul>\n</body></html>\n");
        return b.toString();
    }

    private static String h(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** Lines for rows that could not be measured, grouped for a terminal. */
    public static List<String> terminalLines(List<ClaimRow> rows) {
        List<String> out = new ArrayList<>();
        for (ClaimRow r : rows) {
            out.add(String.format("%-16s %-40s %s", r.verdict().word() + (r.mode().equals("–") ? "" : " (" + r.mode() + ")"),
                    r.claim().id(), r.verdict() == Verdict.CANNOT_MEASURE ? r.reason()
                            : r.pacelab() + " | study " + r.study() + " | " + r.difference()));
        }
        return out;
    }
}
