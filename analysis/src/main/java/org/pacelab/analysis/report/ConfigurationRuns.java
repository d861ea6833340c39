package org.pacelab.analysis.report;

import java.util.List;
import java.util.Objects;

import org.pacelab.analysis.RunResult;

/** The repetitions of one configuration (e.g. "ngtcp2 cubic"), as the report groups them. */
public record ConfigurationRuns(String name, List<RunResult> runs) {
    public ConfigurationRuns {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a configuration needs a name");
        }
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("configuration " + name + " has no runs");
        }
    }
}
