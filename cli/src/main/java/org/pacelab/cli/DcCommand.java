package org.pacelab.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.pacelab.analysis.dc.DcRunReport;
import org.pacelab.lab.dc.DcRunAnalysis;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pacelab dc report}: throughput, fairness, path utilization and reordering of a multi-flow run. */
@Command(name = "dc", mixinStandardHelpOptions = true,
        description = "Dual connectivity and fairness: analyses multi-flow runs of 'pacelab emulate --dc' (or any event log).",
        subcommands = {DcCommand.Report.class})
public final class DcCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() { spec.commandLine().usage(spec.commandLine().getOut()); }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = {"Reads an emulator event log and writes per-flow throughput over time, Jain's fairness index (whole "
                    + "window and sliding windows), per-path throughput and utilization, and reordering statistics:",
                    "dc-summary.json, dc-timeline.csv, dc-throughput, dc-path-a, dc-path-b and dc-fairness (PNG and SVG), "
                            + "dc-report.html.",
                    "Give the run's --dc/--path-a/--path-b/--up to know the paths' capacities (utilization)."})
    static final class Report implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Option(names = "--log", converter = PathChecks.InputFile.class, required = true, paramLabel = "FILE", description = "The run's event log (emulate --log).")
        Path log;
        @Option(names = "--out", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR", description = "Where to write (default: the log's directory).")
        Path out;
        @Option(names = "--dc", paramLabel = "SPEC", description = "The run's --dc spec (for the paths' capacities).")
        String dc;
        @Option(names = "--path-a", paramLabel = "SPEC") String pathA;
        @Option(names = "--path-b", paramLabel = "SPEC") String pathB;
        @Option(names = "--up", paramLabel = "SPEC") String up;
        @Option(names = "--bin", defaultValue = "100ms", paramLabel = "TIME", description = "Bin width (default: ${DEFAULT-VALUE}).")
        String bin;
        @Option(names = "--skip", defaultValue = "0s", paramLabel = "TIME",
                description = "Skip this much of the common window's start (default: ${DEFAULT-VALUE}).")
        String skip;
        @Option(names = "--window", defaultValue = "10s", paramLabel = "TIME",
                description = "Sliding window of the fairness index over time (default: ${DEFAULT-VALUE}).")
        String window;
        @Option(names = "--plot-bin", defaultValue = "1s", paramLabel = "TIME",
                description = "Averaging interval of the plotted rates (default: ${DEFAULT-VALUE}).")
        String plotBin;

        @Override
        public Integer call() throws Exception {
            long binNs, skipNs, windowNs, plotNs;
            DcSpec dcSpec = null;
            try {
                binNs = positive("--bin", bin);
                skipNs = Units.parseDuration("--skip", skip);
                windowNs = positive("--window", window);
                plotNs = positive("--plot-bin", plotBin);
                if (dc != null || pathA != null || pathB != null) dcSpec = DcSpecParser.parse(dc, pathA, pathB, up);
            } catch (SpecException e) {
                return fail(e.getMessage(), 2);
            }
            if (!java.nio.file.Files.isRegularFile(log)) return fail("--log: " + log + " does not exist", 2);
            Path dir = out != null ? out : (log.toAbsolutePath().getParent());
            DcRunAnalysis.Result r;
            try {
                r = DcRunAnalysis.analyze(log, dcSpec, binNs, skipNs, windowNs);
            } catch (EventLogReader.EventLogFormatException | SpecException e) {
                return fail(e.getMessage(), ExitCode.BAD_INPUT);
            }
            List<Path> files = DcRunReport.write(r.data(), r.summary(), dir, plotNs);
            var o = spec.commandLine().getOut();
            o.print(DcRunReport.text(r.summary()));
            o.println("written: " + files.stream().map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".svg"))
                    .reduce((a, b) -> a + ", " + b).orElse("") + " (and SVGs) in " + dir);
            return 0;
        }

        private static long positive(String where, String text) throws SpecException {
            long v = Units.parseDuration(where, text);
            if (v <= 0) throw new SpecException(where + ": '" + text + "' must be longer than 0");
            return v;
        }

        private int fail(String message, int code) {
            spec.commandLine().getErr().println("pacelab dc report: " + message);
            return code;
        }
    }
}
