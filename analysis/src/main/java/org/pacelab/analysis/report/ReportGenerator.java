package org.pacelab.analysis.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jfree.chart.JFreeChart;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.analysis.summary.SummaryField;

/**
 * Renders a report for runs grouped by configuration: {@code index.html} (self-contained, figures inlined as SVG),
 * {@code figures/*.png} and {@code figures/*.svg}, and {@code aggregate.json} with the numbers the page shows.
 * This is the API the experiment runner calls with its per-configuration, per-run results; {@code pacelab report}
 * calls it with runs loaded from directories ({@link RunDirectories}).
 */
public final class ReportGenerator {
    public static final String HTML = "index.html";
    public static final String AGGREGATE = "aggregate.json";
    public static final String FIGURES = "figures";

    /** What was written. */
    public record Report(Path html, Path aggregateJson, List<Path> figureFiles, List<ConfigurationAggregate> aggregates,
                         Map<String, String> figuresNotDrawn) {}

    private ReportGenerator() {}

    public static Report write(Path outDir, List<ConfigurationRuns> configurations) throws IOException {
        return write(outDir, "pacelab report", configurations);
    }

    /**
     * Writes the report into {@code outDir} (created if needed; files are replaced atomically).
     *
     * @throws IllegalArgumentException when there is no configuration or two share a name
     */
    public static Report write(Path outDir, String title, List<ConfigurationRuns> configurations) throws IOException {
        return write(outDir, title, List.of(), configurations);
    }

    /**
     * Writes the report with notes shown under the title (e.g. what a campaign reproduces, peer versions, caveats,
     * configurations that were skipped), one paragraph each.
     */
    public static Report write(Path outDir, String title, List<String> notes, List<ConfigurationRuns> configurations)
            throws IOException {
        if (configurations.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one configuration");
        }
        Set<String> names = new HashSet<>();
        for (ConfigurationRuns c : configurations) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("configuration name '" + c.name() + "' appears twice");
            }
        }
        List<ConfigurationAggregate> aggs = configurations.stream().map(ConfigurationAggregate::new).toList();
        double thresholdUs = configurations.getFirst().runs().getFirst().summary().number(SummaryField.THRESHOLD_US);
        Path figureDir = outDir.resolve(FIGURES);
        Map<String, FigureFiles.Figure> figures = new LinkedHashMap<>();
        Map<String, String> missing = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>();
        draw("ipg-cdf", Figures.ipgCdf(aggs, Double.isNaN(thresholdUs) ? 0 : thresholdUs),
                "no configuration has two or more server packets", figureDir, figures, missing, files);
        draw("train-length-cdf", Figures.trainLengthCdf(aggs), "no configuration has server packets",
                figureDir, figures, missing, files);
        draw("cwnd-timeline", Figures.cwndTimeline(aggs), firstReason(configurations, SummaryField.CWND_MAX_BYTES),
                figureDir, figures, missing, files);
        draw("precision-histogram", Figures.precisionHistogram(aggs),
                firstReason(configurations, SummaryField.PRECISION_US), figureDir, figures, missing, files);
        String generated = DateTimeFormatter.ISO_LOCAL_DATE_TIME.withZone(ZoneOffset.UTC)
                .format(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)) + " UTC";
        Path html = outDir.resolve(HTML);
        AtomicFiles.writeString(html, HtmlReport.page(title, generated, notes, configurations, aggs, figures, missing));
        Path aggregate = outDir.resolve(AGGREGATE);
        AtomicFiles.writeString(aggregate, AggregateJson.text(configurations, aggs));
        return new Report(html, aggregate, List.copyOf(files), aggs, Map.copyOf(missing));
    }

    private static void draw(String name, JFreeChart chart, String whyMissing, Path dir, Map<String, FigureFiles.Figure> figures,
                             Map<String, String> missing, List<Path> files) throws IOException {
        if (chart == null) {
            missing.put(name, whyMissing);
            return;
        }
        FigureFiles.Figure f = FigureFiles.write(chart, dir, name);
        figures.put(name, f);
        files.add(f.png());
        files.add(f.svg());
    }

    private static String firstReason(List<ConfigurationRuns> configurations, SummaryField f) {
        for (ConfigurationRuns c : configurations) {
            String r = AggregateJson.firstReason(c, f);
            if (!r.equals("no run has a value")) {
                return r;
            }
        }
        return "no run has the data";
    }
}
