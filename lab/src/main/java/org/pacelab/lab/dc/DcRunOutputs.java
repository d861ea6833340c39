package org.pacelab.lab.dc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Predicate;

import org.pacelab.analysis.dc.DcRunReport;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryJson;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.spec.SpecException;

/**
 * The measurements of one multi-flow run, written into its directory from its event log: {@code dc-summary.json},
 * {@code dc-timeline.csv}, the figures and {@code dc-report.html} ({@link DcRunReport}), and the run summary
 * {@code summary.json} ({@link DcSummaries}). The same for a relay, namespace-middlebox or simulated run: the
 * campaign runner (every mode) and {@code pacelab sim} call this.
 */
public final class DcRunOutputs {
    /** Bin width of the per-flow and per-path series. */
    public static final long BIN_NS = 100_000_000L;
    /** Sliding window of the fairness index over time. */
    public static final long FAIRNESS_WINDOW_NS = 10_000_000_000L;
    /** Averaging interval of the plotted rates. */
    public static final long PLOT_BIN_NS = 1_000_000_000L;

    private DcRunOutputs() {}

    /** What was measured and the summary written. */
    public record Written(DcRunAnalysis.Result result, Summary summary) { }

    /**
     * @param eventLog the run's event log
     * @param dir      where the files go
     * @param spec     the run's dual-connectivity link (the paths' capacities), or null for a single-path link
     * @param counted  accepts the FLOW descriptions of the flows that belong to the run's client/server pairs
     */
    public static Written write(Path eventLog, Path dir, DcSpec spec, Predicate<String> counted)
            throws IOException, EventLogReader.EventLogFormatException, SpecException {
        DcRunAnalysis.Result r = DcRunAnalysis.analyze(eventLog, spec, BIN_NS, 0, FAIRNESS_WINDOW_NS, counted);
        DcRunReport.write(r.data(), r.summary(), dir, PLOT_BIN_NS);
        Summary s = DcSummaries.of(r.summary());
        SummaryJson.write(s, dir.resolve("summary.json"));
        return new Written(r, s);
    }
}
