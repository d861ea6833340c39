package org.pacelab.lab.interop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The matrix as files: JSON (every cell with its outcome, reason, protocol, time and run directory), Markdown (the
 * table in the runner's style — per server and client the letters of the cases that succeeded, failed and were
 * unsupported — then every failure and every reason for "unsupported"), and a self-contained HTML page.
 */
final class MatrixFiles {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MatrixFiles() {}

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> cell(CellResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("case", r.testCase());
        m.put("server", r.server());
        m.put("client", r.client());
        m.put("result", r.result().outcome().label());
        m.put("reason", r.result().reason());
        m.put("alpn", r.alpn());
        m.put("seconds", Math.round(r.seconds() * 10) / 10.0);
        m.put("directory", r.directory());
        CellProvenance p = r.provenance();
        if (p != null) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("commit", p.commit());
            x.put("invocation", p.invocation());
            x.put("started", p.started());
            x.put("finished", p.finished());
            x.put("load_start", Double.isNaN(p.loadStart()) ? null : p.loadStart());
            x.put("load_end", Double.isNaN(p.loadEnd()) ? null : p.loadEnd());
            x.put("seed", p.seed());
            x.put("jobs", p.jobs());
            m.put("provenance", x);
        }
        return m;
    }

    static String cellJson(CellResult r) {
        return cellJson(r, null);
    }

    /** A cell's {@code result.json}; a measurement's cell that ran has its repetitions and statistics in "measurement". */
    static String cellJson(CellResult r, MeasurementResult measured) {
        Map<String, Object> m = cell(r);
        if (measured != null) {
            m.put("measurement", measured.json());
        }
        return json(m);
    }

    static String matrixJson(InteropMatrix.Plan plan, List<CellResult> cells) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("servers", plan.servers().stream().map(InteropEndpoint::name).toList());
        m.put("clients", plan.clients().stream().map(InteropEndpoint::name).toList());
        List<Map<String, Object>> cases = new ArrayList<>();
        for (InteropCase c : plan.cases()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("name", c.name());
            x.put("abbreviation", c.abbreviation());
            x.put("description", c.description());
            cases.add(x);
        }
        m.put("cases", cases);
        List<Map<String, Object>> measurements = new ArrayList<>();
        for (InteropMeasurement x : plan.measurements()) {
            Map<String, Object> y = new LinkedHashMap<>();
            y.put("name", x.name());
            y.put("abbreviation", x.abbreviation());
            y.put("description", x.description());
            y.put("unit", x.unit());
            y.put("repetitions", x.repetitions());
            measurements.add(y);
        }
        m.put("measurements", measurements);
        m.put("provenance", provenance(plan, cells));
        m.put("results", cells.stream().map(MatrixFiles::cell).toList());
        return json(m);
    }

    private static String symbol(CheckResult.Outcome o) {
        return switch (o) {
            case SUCCEEDED -> "✓";
            case FAILED -> "✗";
            case UNSUPPORTED -> "–";
        };
    }

    /** Abbreviations of the cases with this outcome for one pair, in case order. */
    private static List<String> letters(InteropMatrix.Plan plan, List<CellResult> cells, String server, String client,
                                        CheckResult.Outcome o) {
        List<String> out = new ArrayList<>();
        for (InteropCase c : plan.cases()) {
            for (CellResult r : cells) {
                if (r.testCase().equals(c.name()) && r.server().equals(server) && r.client().equals(client) && r.result().outcome() == o) {
                    out.add(c.abbreviation());
                }
            }
        }
        return out;
    }

    private static String abbreviation(InteropMatrix.Plan plan, String name) {
        return plan.cases().stream().filter(c -> c.name().equals(name)).map(InteropCase::abbreviation).findFirst()
                .orElse(plan.measurements().stream().filter(x -> x.name().equals(name)).map(InteropMeasurement::abbreviation)
                        .findFirst().orElse(name));
    }

    /** A measurement's cell for one pair, or null. */
    private static CellResult measured(List<CellResult> cells, InteropMeasurement m, String server, String client) {
        for (CellResult r : cells) {
            if (r.testCase().equals(m.name()) && r.server().equals(server) && r.client().equals(client)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The measurements as a Markdown table, one per measurement: mean ± std (n) per server and client, or the outcome
     * and the reason; empty when the plan has none.
     */
    static String measurementsMarkdown(InteropMatrix.Plan plan, List<CellResult> cells) {
        StringBuilder b = new StringBuilder();
        for (InteropMeasurement m : plan.measurements()) {
            b.append("\n### Measurement ").append(m.name()).append(" (").append(m.abbreviation()).append(")\n\n")
                    .append(m.description()).append(" Mean ± sample standard deviation of ").append(m.repetitions())
                    .append(" repetitions, in ").append(m.unit()).append("; rows are servers, columns clients.\n\n");
            b.append("| server ↓ client → |");
            for (InteropEndpoint c : plan.clients()) {
                b.append(' ').append(c.name()).append(" |");
            }
            b.append("\n|---|").append("---|".repeat(plan.clients().size())).append('\n');
            for (InteropEndpoint s : plan.servers()) {
                b.append("| **").append(s.name()).append("** |");
                for (InteropEndpoint c : plan.clients()) {
                    CellResult r = measured(cells, m, s.name(), c.name());
                    b.append(' ').append(r == null ? "" : r.result().ok() ? md(r.result().reason())
                            : symbol(r.result().outcome()) + " " + r.result().outcome().label() + ": " + md(r.result().reason())).append(" |");
                }
                b.append('\n');
            }
        }
        return b.toString();
    }

    /**
     * Where the matrix's cells came from, in one paragraph: how many of the table's cells have a result, from how many
     * invocations (a matrix built in slices says so), their time span (UTC), commits, seeds and the host's load, and
     * when some ran beside others ({@code --jobs}), how many.
     */
    static String provenance(InteropMatrix.Plan plan, List<CellResult> cells) {
        long ok = cells.stream().filter(r -> r.result().outcome() == CheckResult.Outcome.SUCCEEDED).count();
        long failed = cells.stream().filter(r -> r.result().outcome() == CheckResult.Outcome.FAILED).count();
        int table = plan.servers().size() * plan.clients().size() * (plan.cases().size() + plan.measurements().size());
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%d cells (%d succeeded, %d failed, %d unsupported) of %s × %s × %s", cells.size(), ok,
                failed, cells.size() - ok - failed, count(plan.servers().size(), "server"), count(plan.clients().size(), "client"),
                count(plan.cases().size(), "case") + (plan.measurements().isEmpty() ? ""
                        : " and " + count(plan.measurements().size(), "measurement"))));
        b.append(cells.size() < table ? String.format(Locale.ROOT, " (%d cells; %d not run yet).", table, table - cells.size())
                : String.format(Locale.ROOT, " (%d cells).", table));
        java.util.TreeSet<String> invocations = new java.util.TreeSet<>();
        Map<String, Integer> commits = new java.util.TreeMap<>();
        java.util.TreeSet<Long> seeds = new java.util.TreeSet<>();
        Map<Integer, Integer> jobs = new java.util.TreeMap<>();
        String first = null;
        String last = null;
        double lo = Double.NaN;
        double hi = Double.NaN;
        for (CellResult r : cells) {
            CellProvenance p = r.provenance();
            if (p == null) {
                continue;
            }
            invocations.add(p.invocation());
            commits.merge(p.commit(), 1, Integer::sum);
            seeds.add(p.seed());
            if (r.directory() != null) {
                jobs.merge(p.jobs(), 1, Integer::sum);
            }
            first = first == null || p.started().compareTo(first) < 0 ? p.started() : first;
            last = last == null || p.finished().compareTo(last) > 0 ? p.finished() : last;
            for (double l : new double[] {p.loadStart(), p.loadEnd()}) {
                if (!Double.isNaN(l)) {
                    lo = Double.isNaN(lo) ? l : Math.min(lo, l);
                    hi = Double.isNaN(hi) ? l : Math.max(hi, l);
                }
            }
        }
        if (invocations.isEmpty()) {
            return b.toString();
        }
        b.append(invocations.size() == 1 ? " Run by one invocation of `pacelab interop`"
                : " The cells come from " + invocations.size() + " invocations of `pacelab interop` with the same `--out` (the "
                        + "matrix was built in slices, each cell as one invocation left it)");
        String from = time(first);
        String to = time(last);
        if (from.length() == to.length() && from.length() > 11 && from.substring(0, 11).equals(to.substring(0, 11))) {
            to = to.substring(11);
        }
        b.append(", between ").append(from).append(" and ").append(to).append(" UTC, at commit");
        List<String> c = new ArrayList<>();
        commits.forEach((k, v) -> c.add(commits.size() == 1 ? k : k + " (" + v + (v == 1 ? " cell)" : " cells)")));
        b.append(commits.size() == 1 ? " " : "s ").append(String.join(", ", c));
        b.append("; seed").append(seeds.size() == 1 ? " " : "s ").append(String.join(", ", seeds.stream().map(String::valueOf).toList()));
        if (!Double.isNaN(lo)) {
            b.append(String.format(Locale.ROOT, "; the host's 1-minute load average at the cells' starts and ends %.1f–%.1f", lo, hi));
        }
        if (jobs.keySet().stream().anyMatch(j -> j > 1)) {
            // cells run beside others shared the CPUs: say how many, as the timing-sensitive cases notice it
            List<String> j = new ArrayList<>();
            jobs.forEach((k, v) -> j.add(v + (k == 1 ? " one at a time" : " with `--jobs " + k + "`")));
            // e.g. "4 ran one at a time, 10 with `--jobs 2`"
            b.append("; of the cells that ran, ").append(String.join(", ", j).replaceFirst(" ", " ran "))
                    .append(" (beside other cells, on the same CPUs)");
        }
        return b.append('.').toString();
    }

    private static String count(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    /** An ISO-8601 instant as {@code 2026-12-02 03:55}. */
    private static String time(String iso) {
        try {
            return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT).withZone(java.time.ZoneOffset.UTC)
                    .format(java.time.Instant.parse(iso));
        } catch (java.time.DateTimeException e) {
            return iso;
        }
    }

    static String markdown(InteropMatrix.Plan plan, List<CellResult> cells) {
        StringBuilder b = new StringBuilder();
        b.append(provenance(plan, cells)).append("\n\n");
        if (!plan.cases().isEmpty()) {
            b.append("Rows are servers, columns clients. In each cell: ✓ the cases that succeeded, ✗ those that failed, – those ")
                    .append("unsupported, by the runner's abbreviations (legend below).\n\n");
            b.append("| server ↓ client → |");
            for (InteropEndpoint c : plan.clients()) {
                b.append(' ').append(c.name()).append(" |");
            }
            b.append("\n|---|");
            b.append("---|".repeat(plan.clients().size()));
            b.append('\n');
            for (InteropEndpoint s : plan.servers()) {
                b.append("| **").append(s.name()).append("** |");
                for (InteropEndpoint c : plan.clients()) {
                    List<String> parts = new ArrayList<>();
                    for (CheckResult.Outcome o : CheckResult.Outcome.values()) {
                        List<String> l = letters(plan, cells, s.name(), c.name(), o);
                        if (!l.isEmpty()) {
                            parts.add(symbol(o) + " " + String.join(" ", l));
                        }
                    }
                    b.append(' ').append(String.join("<br>", parts)).append(" |");
                }
                b.append('\n');
            }
            b.append("\nCases: ");
            List<String> legend = new ArrayList<>();
            for (InteropCase c : plan.cases()) {
                legend.add("**" + c.abbreviation() + "** " + c.name());
            }
            b.append(String.join(", ", legend)).append(".\n");
        }
        b.append(measurementsMarkdown(plan, cells));
        List<CellResult> failures = cells.stream().filter(r -> r.result().outcome() == CheckResult.Outcome.FAILED).toList();
        b.append("\n### Failures (").append(failures.size()).append(")\n\n");
        if (failures.isEmpty()) {
            b.append("None.\n");
        } else {
            b.append("| case | server → client | reason |\n|---|---|---|\n");
            for (CellResult r : failures) {
                b.append("| ").append(r.testCase()).append(" (").append(abbreviation(plan, r.testCase())).append(") | ")
                        .append(r.server()).append(" → ").append(r.client()).append(" | ").append(md(r.result().reason())).append(" |\n");
            }
        }
        Map<String, List<String>> unsupported = new LinkedHashMap<>();
        for (CellResult r : cells) {
            if (r.result().outcome() == CheckResult.Outcome.UNSUPPORTED) {
                unsupported.computeIfAbsent(r.result().reason(), k -> new ArrayList<>()).add(abbreviation(plan, r.testCase()) + " "
                        + r.server() + "→" + r.client());
            }
        }
        b.append("\n### Unsupported (").append(unsupported.values().stream().mapToInt(List::size).sum()).append(")\n\n");
        if (unsupported.isEmpty()) {
            b.append("None.\n");
        } else {
            b.append("| reason | cells |\n|---|---|\n");
            for (Map.Entry<String, List<String>> e : unsupported.entrySet()) {
                List<String> where = e.getValue();
                String list = where.size() > 8 ? String.join(", ", where.subList(0, 8)) + ", ... (" + where.size() + ")" : String.join(", ", where);
                b.append("| ").append(md(e.getKey())).append(" | ").append(list).append(" |\n");
            }
        }
        return b.toString();
    }

    private static String md(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }

    private static String html(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }

    /** The cases' grid (the letters of each cell's cases by outcome) and their legend. */
    private static void casesHtml(InteropMatrix.Plan plan, List<CellResult> cells, StringBuilder b) {
        b.append("<table><tr><th>server ↓ client →</th>");
        for (InteropEndpoint c : plan.clients()) {
            b.append("<th>").append(html(c.name())).append("</th>");
        }
        b.append("</tr>\n");
        for (InteropEndpoint s : plan.servers()) {
            b.append("<tr><th>").append(html(s.name())).append("</th>");
            for (InteropEndpoint c : plan.clients()) {
                b.append("<td>");
                for (CheckResult.Outcome o : CheckResult.Outcome.values()) {
                    boolean any = false;
                    for (InteropCase k : plan.cases()) {
                        for (CellResult r : cells) {
                            if (r.testCase().equals(k.name()) && r.server().equals(s.name()) && r.client().equals(c.name())
                                    && r.result().outcome() == o) {
                                String cls = switch (o) {
                                    case SUCCEEDED -> "s";
                                    case FAILED -> "f";
                                    case UNSUPPORTED -> "u";
                                };
                                String title = k.name() + ": " + o.label() + (r.result().reason() == null ? "" : " — " + r.result().reason());
                                String letter = "<span class=\"" + cls + "\" title=\"" + html(title) + "\">" + html(k.abbreviation()) + "</span>";
                                b.append(r.directory() == null ? letter : "<a href=\"" + html(r.directory()) + "/\">" + letter + "</a>").append(' ');
                                any = true;
                            }
                        }
                    }
                    if (any) {
                        b.append("<br>");
                    }
                }
                b.append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n<h2>Cases</h2>\n<table><tr><th>letters</th><th>case</th><th>what it tests</th></tr>\n");
        for (InteropCase k : plan.cases()) {
            b.append("<tr><td>").append(html(k.abbreviation())).append("</td><td>").append(html(k.name())).append("</td><td>")
                    .append(html(k.description())).append("</td></tr>\n");
        }
        b.append("</table>\n"); // the cases'
    }

    static String html(InteropMatrix.Plan plan, List<CellResult> cells) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pacelab interop matrix</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;")
                .append("padding:4px 6px;vertical-align:top}.s{color:#107010}.f{color:#b00000;font-weight:bold}.u{color:#888}")
                .append("a{text-decoration:none}</style></head><body>\n<h1>pacelab interop matrix</h1>\n")
                .append("<p>The QUIC Interop Runner's test cases, run locally through pacelab's emulator. Rows are servers, ")
                .append("columns clients; hover a letter for the reason, click it for the run's files.</p>\n<p>")
                .append(html(provenance(plan, cells).replace("`", ""))).append("</p>\n");
        if (!plan.cases().isEmpty()) {
            casesHtml(plan, cells, b);
        }
        for (InteropMeasurement m : plan.measurements()) {
            b.append("<h2>Measurement ").append(html(m.name())).append(" (").append(html(m.abbreviation())).append(")</h2>\n<p>")
                    .append(html(m.description())).append(" Mean ± sample standard deviation of ").append(m.repetitions())
                    .append(" repetitions, in ").append(html(m.unit())).append(".</p>\n<table><tr><th>server ↓ client →</th>");
            for (InteropEndpoint c : plan.clients()) {
                b.append("<th>").append(html(c.name())).append("</th>");
            }
            b.append("</tr>\n");
            for (InteropEndpoint s : plan.servers()) {
                b.append("<tr><th>").append(html(s.name())).append("</th>");
                for (InteropEndpoint c : plan.clients()) {
                    CellResult r = measured(cells, m, s.name(), c.name());
                    String text = r == null ? "" : r.result().ok() ? html(r.result().reason())
                            : "<span class=\"" + (r.result().outcome() == CheckResult.Outcome.FAILED ? "f" : "u") + "\">"
                                    + r.result().outcome().label() + "</span>: " + html(r.result().reason());
                    b.append("<td>").append(r == null || r.directory() == null ? text : "<a href=\"" + html(r.directory()) + "/\">"
                            + text + "</a>").append("</td>");
                }
                b.append("</tr>\n");
            }
            b.append("</table>\n");
        }
        b.append("<h2>Every result</h2>\n<table><tr><th>case</th><th>server</th><th>client</th><th>result</th><th>reason</th>"
                + "<th>protocol</th><th>seconds</th><th>commit</th><th>started (UTC)</th></tr>\n");
        for (CellResult r : cells) {
            String cls = switch (r.result().outcome()) {
                case SUCCEEDED -> "s";
                case FAILED -> "f";
                case UNSUPPORTED -> "u";
            };
            b.append("<tr><td>").append(html(r.testCase())).append("</td><td>").append(html(r.server())).append("</td><td>")
                    .append(html(r.client())).append("</td><td class=\"").append(cls).append("\">")
                    .append(r.directory() == null ? r.result().outcome().label()
                            : "<a href=\"" + html(r.directory()) + "/\">" + r.result().outcome().label() + "</a>")
                    .append("</td><td>").append(html(r.result().reason())).append("</td><td>").append(html(r.alpn() == null ? "" : r.alpn()))
                    .append("</td><td>").append(String.format(Locale.ROOT, "%.1f", r.seconds())).append("</td><td>")
                    .append(html(r.provenance() == null ? "" : r.provenance().commit())).append("</td><td>")
                    .append(html(r.provenance() == null ? "" : time(r.provenance().started()))).append("</td></tr>\n");
        }
        b.append("</table>\n</body></html>\n");
        return b.toString();
    }
}
