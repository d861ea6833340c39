package org.pacelab.lab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.pacelab.analysis.io.AtomicFiles;

/** The loopback benchmark's output: one line per run, per-stack statistics, ratios, and the JSON record. */
public final class BenchReport {
    private BenchReport() {}

    /** The header of the per-run lines. */
    public static String runHeader() {
        return String.format(Locale.ROOT, "%-4s %-16s %9s %8s %11s %11s %9s %13s", "rep", "stack", "Mbit/s", "wall s",
                "client s/GiB", "server s/GiB", "srv start", "load bef/aft");
    }

    /** One run as a line (or its failure). */
    public static String runLine(LoopbackBench.Run r) {
        String load = String.format(Locale.ROOT, "%.2f/%.2f", r.loadBefore(), r.loadAfter());
        if (!r.ok()) {
            return String.format(Locale.ROOT, "%-4d %-16s FAILED: %s (load %s)", r.rep(), r.stack(), r.failure(), load);
        }
        return String.format(Locale.ROOT, "%-4d %-16s %9.0f %8.2f %11.2f %11.2f %7.0fms %13s", r.rep(), r.stack(),
                r.mbitPerSecond(), r.wallNs() / 1e9, r.clientCpuPerGib(), r.serverCpuPerGib(), r.serverStartNs() / 1e6, load);
    }

    /** Median, mean, sample standard deviation, minimum and maximum of a metric over a stack's good runs. */
    public record Stats(int n, double median, double mean, double std, double min, double max) {
        static Stats of(List<Double> xs) {
            int n = xs.size();
            if (n == 0) {
                return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            List<Double> s = xs.stream().sorted().toList();
            double median = n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
            double mean = s.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            double var = n < 2 ? 0 : s.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (n - 1);
            return new Stats(n, median, mean, Math.sqrt(var), s.getFirst(), s.getLast());
        }

        String text(String format) {
            if (n == 0) {
                return "-";
            }
            return String.format(Locale.ROOT, format + " (" + format + " ± " + format + ")", median, mean, std);
        }
    }

    /** A stack's statistics. */
    public record StackSummary(String stack, int runs, int failed, Stats goodput, Stats clientCpu, Stats serverCpu,
                               Stats serverStart) {}

    public static List<StackSummary> summarize(List<String> stacks, List<LoopbackBench.Run> runs) {
        List<StackSummary> out = new ArrayList<>();
        for (String s : stacks) {
            List<LoopbackBench.Run> mine = runs.stream().filter(r -> r.stack().equals(s)).toList();
            List<LoopbackBench.Run> ok = mine.stream().filter(LoopbackBench.Run::ok).toList();
            out.add(new StackSummary(s, mine.size(), mine.size() - ok.size(), stat(ok, LoopbackBench.Run::mbitPerSecond),
                    stat(ok, LoopbackBench.Run::clientCpuPerGib), stat(ok, LoopbackBench.Run::serverCpuPerGib),
                    stat(ok, r -> r.serverStartNs() / 1e6)));
        }
        return out;
    }

    private static Stats stat(List<LoopbackBench.Run> runs, ToDoubleFunction<LoopbackBench.Run> f) {
        return Stats.of(runs.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    /** The summary table, the ratios of every pacelab variant to every other stack, and the load average. */
    public static String summary(List<StackSummary> stacks, List<String> pacelabVariants, List<LoopbackBench.Run> runs) {
        StringBuilder sb = new StringBuilder();
        sb.append("median (mean ± std) over the good runs:\n");
        sb.append(String.format(Locale.ROOT, "%-16s %4s %-26s %-24s %-24s %s%n", "stack", "n", "goodput Mbit/s",
                "client CPU s/GiB", "server CPU s/GiB", "server start ms"));
        for (StackSummary s : stacks) {
            sb.append(String.format(Locale.ROOT, "%-16s %4s %-26s %-24s %-24s %s%n", s.stack(),
                    s.runs() - s.failed() + (s.failed() > 0 ? "+" + s.failed() + "F" : ""), s.goodput().text("%.0f"),
                    s.clientCpu().text("%.2f"), s.serverCpu().text("%.2f"), s.serverStart().text("%.0f")));
        }
        for (StackSummary p : stacks) {
            if (!pacelabVariants.contains(p.stack()) || p.goodput().n() == 0) {
                continue;
            }
            for (StackSummary o : stacks) {
                if (o == p || o.goodput().n() == 0 || pacelabVariants.contains(o.stack()) && stacks.indexOf(o) < stacks.indexOf(p)) {
                    continue;
                }
                sb.append(String.format(Locale.ROOT, "ratio %s / %s (medians): goodput %.2f, client CPU %.2f, server CPU %.2f%n",
                        p.stack(), o.stack(), p.goodput().median() / o.goodput().median(),
                        p.clientCpu().median() / o.clientCpu().median(), p.serverCpu().median() / o.serverCpu().median()));
            }
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (LoopbackBench.Run r : runs) {
            for (double l : new double[] {r.loadBefore(), r.loadAfter()}) {
                if (!Double.isNaN(l)) {
                    lo = Math.min(lo, l);
                    hi = Math.max(hi, l);
                }
            }
        }
        if (lo <= hi) {
            sb.append(String.format(Locale.ROOT, "load average (1 min) around the runs: %.2f to %.2f on %d CPUs%n", lo, hi,
                    Runtime.getRuntime().availableProcessors()));
        }
        return sb.toString();
    }

    /** Writes every run and the summary as JSON (atomically). */
    public static void writeJson(Path file, Map<String, Object> header, List<StackSummary> stacks, List<LoopbackBench.Run> runs)
            throws IOException {
        Map<String, Object> root = new LinkedHashMap<>(header);
        List<Map<String, Object>> rs = new ArrayList<>();
        for (LoopbackBench.Run r : runs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("stack", r.stack());
            m.put("rep", r.rep());
            m.put("ok", r.ok());
            if (!r.ok()) {
                m.put("failure", r.failure());
            }
            m.put("bytes", r.bytes());
            m.put("wall_ns", r.wallNs());
            m.put("client_cpu_ns", r.clientCpuNs());
            m.put("server_cpu_ns", r.serverCpuNs());
            m.put("server_start_ns", r.serverStartNs());
            m.put("load_before", r.loadBefore());
            m.put("load_after", r.loadAfter());
            if (r.ok()) {
                m.put("goodput_mbit_s", r.mbitPerSecond());
                m.put("client_cpu_s_per_gib", r.clientCpuPerGib());
                m.put("server_cpu_s_per_gib", r.serverCpuPerGib());
            }
            rs.add(m);
        }
        root.put("runs", rs);
        root.put("stacks", stacks);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        AtomicFiles.writeString(file, json.writeValueAsString(root) + "\n");
    }
}
