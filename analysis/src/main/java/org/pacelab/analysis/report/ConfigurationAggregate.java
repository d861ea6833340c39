package org.pacelab.analysis.report;

import java.util.EnumMap;
import java.util.Map;

import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.metrics.RunDistributions;
import org.pacelab.analysis.metrics.RunningStats;
import org.pacelab.analysis.metrics.SignedHistogram;
import org.pacelab.analysis.qlog.CongestionTimeline;
import org.pacelab.analysis.summary.SummaryField;

/**
 * A configuration's repetitions combined: for each numeric summary field the mean and population standard deviation
 * over the runs that have it (the study's "mean ± std"), the pooled per-packet distributions, and the send delays
 * re-centred per run (each run's mean removed, so that clock offsets between runs do not widen the pooled spread).
 */
public final class ConfigurationAggregate {
    private final String name;
    private final int runs;
    private final Map<SummaryField, RunningStats> stats = new EnumMap<>(SummaryField.class);
    private final RunDistributions pooled = RunDistributions.empty();
    private final SignedHistogram centredDelays = new SignedHistogram(RunDistributions.SEND_DELAY_BIN_NS);
    private final CongestionTimeline timeline;
    private final String timelineRun;

    public ConfigurationAggregate(ConfigurationRuns c) {
        this.name = c.name();
        this.runs = c.runs().size();
        CongestionTimeline first = null;
        String firstRun = null;
        for (RunResult r : c.runs()) {
            for (SummaryField f : SummaryField.values()) {
                if (f.numeric() && f != SummaryField.SUMMARY_VERSION && r.summary().has(f)) {
                    stats.computeIfAbsent(f, k -> new RunningStats()).add(r.summary().number(f));
                }
            }
            pooled.merge(r.distributions());
            SignedHistogram d = r.distributions().sendDelays();
            if (d.count() > 0) {
                double[] sum = {0};
                d.forEachBin((start, n) -> sum[0] += (start + d.binWidth() / 2.0) * n);
                long shift = Math.round(sum[0] / d.count());
                d.forEachBin((start, n) -> centredDelays.recordCount(start - shift, n));
            }
            if (first == null && r.timeline() != null && r.timeline().size() > 0) {
                first = r.timeline();
                firstRun = r.runId();
            }
        }
        this.timeline = first;
        this.timelineRun = firstRun;
    }

    public String name() {
        return name;
    }

    public int runs() {
        return runs;
    }

    /** Statistics of a field over the runs that have a value for it (count 0 when none has). */
    public RunningStats stats(SummaryField f) {
        return stats.getOrDefault(f, new RunningStats());
    }

    public RunDistributions pooled() {
        return pooled;
    }

    /** Pooled send delays, each run shifted so that its mean is 0. */
    public SignedHistogram centredSendDelays() {
        return centredDelays;
    }

    /** The congestion timeline of the first run that has one, or null. */
    public CongestionTimeline timeline() {
        return timeline;
    }

    public String timelineRun() {
        return timelineRun;
    }
}
