package org.pacelab.analysis.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.metrics.RunDistributions;
import org.pacelab.analysis.qlog.CongestionTimeline;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryJson;
import org.pacelab.analysis.table.PacketCsvReader;
import org.pacelab.analysis.table.TimelineCsv;

/**
 * Loads runs written by {@code pacelab analyze --out DIR}: {@code summary.json} (required), {@code packets.csv}
 * (for the distributions) and {@code timeline.csv} (for the congestion window), and groups them into
 * configurations, either from {@code NAME=DIR[,DIR...]} arguments or from a {@code ROOT/<config>/<run>/} layout.
 */
public final class RunDirectories {
    public static final String SUMMARY = "summary.json";
    public static final String PACKETS = "packets.csv";
    public static final String TIMELINE = "timeline.csv";

    private RunDirectories() {}

    /** Loads one run directory; the run is named after the directory. */
    public static RunResult load(Path dir) throws IOException {
        Path summaryFile = dir.resolve(SUMMARY);
        if (!Files.isRegularFile(summaryFile)) {
            throw new NoSuchFileException(summaryFile.toString(), null,
                    "run directory " + dir + " has no " + SUMMARY + " (write it with 'pacelab analyze CAPTURE --out " + dir + "')");
        }
        Summary summary = SummaryJson.read(summaryFile);
        Path packets = dir.resolve(PACKETS);
        RunDistributions d = Files.isRegularFile(packets) ? PacketCsvReader.read(packets) : RunDistributions.empty();
        Path timelineFile = dir.resolve(TIMELINE);
        CongestionTimeline timeline = Files.isRegularFile(timelineFile) ? TimelineCsv.read(timelineFile) : null;
        String id = dir.toAbsolutePath().normalize().getFileName() == null ? dir.toString()
                : dir.toAbsolutePath().normalize().getFileName().toString();
        return new RunResult(id, summary, d, timeline);
    }

    /** Parses {@code NAME=DIR[,DIR...]} and loads the runs. */
    public static ConfigurationRuns fromArgument(String argument) throws IOException {
        int eq = argument.indexOf('=');
        if (eq <= 0 || eq == argument.length() - 1) {
            throw new IllegalArgumentException("'" + argument + "' is not NAME=RUN_DIR[,RUN_DIR...], e.g. cubic=results/cubic/1,results/cubic/2");
        }
        String name = argument.substring(0, eq);
        List<RunResult> runs = new ArrayList<>();
        for (String d : argument.substring(eq + 1).split(",")) {
            if (!d.isBlank()) {
                runs.add(load(Path.of(d.strip())));
            }
        }
        return new ConfigurationRuns(name, runs);
    }

    /** Every {@code ROOT/<config>/<run>/summary.json}, configurations and runs in name order. */
    public static List<ConfigurationRuns> fromLayout(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new NoSuchFileException(root.toString(), null, "no such results directory");
        }
        List<ConfigurationRuns> out = new ArrayList<>();
        for (Path config : sortedDirectories(root)) {
            List<RunResult> runs = new ArrayList<>();
            for (Path run : sortedDirectories(config)) {
                if (Files.isRegularFile(run.resolve(SUMMARY))) {
                    runs.add(load(run));
                }
            }
            if (!runs.isEmpty()) {
                out.add(new ConfigurationRuns(config.getFileName().toString(), runs));
            }
        }
        if (out.isEmpty()) {
            throw new IOException(root + " holds no <config>/<run>/" + SUMMARY + " (write runs with 'pacelab analyze CAPTURE --out "
                    + root + "/<config>/<run>')");
        }
        return out;
    }

    private static List<Path> sortedDirectories(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).sorted(RunDirectories::natural).toList();
        }
    }

    /** Orders names with numbers by value: run 2 before run 10. */
    static int natural(Path a, Path b) {
        String x = a.getFileName().toString();
        String y = b.getFileName().toString();
        if (x.matches("\\d+") && y.matches("\\d+") && x.length() < 19 && y.length() < 19) {
            return Long.compare(Long.parseLong(x), Long.parseLong(y));
        }
        return x.compareTo(y);
    }
}
