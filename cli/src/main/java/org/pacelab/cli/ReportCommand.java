package org.pacelab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.pacelab.analysis.report.ConfigurationRuns;
import org.pacelab.analysis.report.ReportGenerator;
import org.pacelab.analysis.report.ReportTable;
import org.pacelab.analysis.report.RunDirectories;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.report.CampaignReport;
import org.pacelab.lab.run.CampaignLayout;
import org.pacelab.lab.store.ExportFormat;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.store.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pacelab report}: HTML page, figures and table for runs grouped by configuration. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {
                "Renders a self-contained HTML report (index.html), PNG and SVG figures and aggregate.json for runs",
                "written by 'pacelab analyze --out RUN_DIR', grouped by configuration, and prints the table.",
                "With --campaign, reads a campaign's results store (written by 'pacelab run') instead, and can export",
                "its tables (configurations, runs, summaries, packets, timelines, attempts) as CSV or Parquet."},
        footer = {"", "Examples:",
                "  pacelab report --out report cubic=runs/c1,runs/c2 bbr=runs/b1,runs/b2",
                "  pacelab report --out report --results results      (results/<config>/<run>/summary.json)",
                "  pacelab report --campaign results/quickstart        (report into results/quickstart/report)",
                "  pacelab report --campaign results/quickstart --export parquet"})
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR",
            description = "directory for index.html, figures/ and aggregate.json (default with --campaign: DIR/report)")
    Path out;

    @Option(names = "--campaign", converter = PathChecks.InputDirectory.class, paramLabel = "DIR", description = "a campaign directory written by 'pacelab run' (its campaign.duckdb)")
    Path campaign;

    @Option(names = "--export", paramLabel = "FORMAT", description = "with --campaign: also export the store's tables: csv or parquet")
    String export;

    @Option(names = "--export-dir", converter = PathChecks.OutputDirectory.class, paramLabel = "DIR", description = "where --export writes (default: the campaign's export/ directory)")
    Path exportDir;

    @Option(names = "--results", converter = PathChecks.InputDirectory.class, paramLabel = "DIR", description = "a results tree laid out as DIR/<config>/<run>/summary.json")
    Path results;

    @Option(names = "--title", paramLabel = "TEXT", defaultValue = "pacelab report", description = "page title")
    String title;

    @Parameters(paramLabel = "CONFIG=RUN_DIR[,RUN_DIR...]", arity = "0..*",
            description = "a configuration's name and its run directories")
    List<String> configurations = new ArrayList<>();

    @Override
    public Integer call() {
        if (campaign != null) {
            return fromCampaign();
        }
        if (export != null) {
            throw new ParameterException(spec.commandLine(), "--export needs --campaign DIR (the store to export)");
        }
        if (out == null) {
            throw new ParameterException(spec.commandLine(), "give --out DIR for the report (or --campaign DIR)");
        }
        if (results == null && configurations.isEmpty()) {
            throw new ParameterException(spec.commandLine(),
                    "give configurations as CONFIG=RUN_DIR[,RUN_DIR...] or a results tree with --results DIR");
        }
        PrintWriter err = spec.commandLine().getErr();
        List<ConfigurationRuns> runs = new ArrayList<>();
        try {
            if (results != null) {
                runs.addAll(RunDirectories.fromLayout(results));
            }
            for (String c : configurations) {
                runs.add(RunDirectories.fromArgument(c));
            }
            ReportGenerator.Report report = ReportGenerator.write(out, title, runs);
            PrintWriter o = spec.commandLine().getOut();
            o.print(ReportTable.text(report.aggregates()));
            o.println("report: " + report.html());
            report.figuresNotDrawn().forEach((name, why) -> o.println("figure " + name + " not drawn: " + why));
            o.flush();
            return 0;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (NoSuchFileException e) {
            err.println("pacelab report: " + e.getFile() + ": " + (e.getReason() == null ? "no such file" : e.getReason()));
            return 1;
        } catch (IOException e) {
            err.println("pacelab report: " + e.getMessage());
            return 1;
        }
    }

    private Integer fromCampaign() {
        if (results != null || !configurations.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--campaign reads the campaign's store; do not give --results or run directories too");
        }
        ExportFormat format = null;
        if (export != null) {
            format = switch (export.toLowerCase(java.util.Locale.ROOT)) {
                case "csv" -> ExportFormat.CSV;
                case "parquet" -> ExportFormat.PARQUET;
                default -> throw new ParameterException(spec.commandLine(), "--export: '" + export + "' is not a format; valid: csv, parquet");
            };
        }
        CampaignLayout layout = new CampaignLayout(campaign);
        PrintWriter o = spec.commandLine().getOut();
        try (ResultStore store = ResultStore.openExisting(layout.store())) {
            CampaignReport.Written w = CampaignReport.write(store, out != null ? out : layout.report(), PeerRegistry.standard());
            o.print(ReportTable.text(w.report().aggregates()));
            o.println("report: " + w.report().html());
            if (w.dc() != null) {
                o.print(w.dc().text());
                o.println("dual-connectivity report: " + w.dc().html());
            }
            w.report().figuresNotDrawn().forEach((name, why) -> o.println("figure " + name + " not drawn: " + why));
            if (format != null) {
                Path dir = exportDir != null ? exportDir : campaign.resolve("export");
                for (Path f : store.export(dir, format)) {
                    o.println("exported " + f);
                }
            }
            o.flush();
            return 0;
        } catch (StoreException | IOException e) {
            spec.commandLine().getErr().println("pacelab report: " + e.getMessage());
            return 1;
        }
    }
}
