package org.pacelab.analysis;

import java.util.Objects;

import org.pacelab.analysis.metrics.RunDistributions;
import org.pacelab.analysis.qlog.CongestionTimeline;
import org.pacelab.analysis.summary.Summary;

/**
 * Everything the analysis knows about one run (one repetition): the scalar summary, the per-packet distributions,
 * and the sender's congestion-control timeline (null when no qlog was given).
 */
public record RunResult(String runId, Summary summary, RunDistributions distributions, CongestionTimeline timeline) {
    public RunResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(distributions, "distributions");
    }
}
