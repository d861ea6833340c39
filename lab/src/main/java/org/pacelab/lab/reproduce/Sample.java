package org.pacelab.lab.reproduce;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.plan.Configuration;

/**
 * One configuration's values of a metric over its finished repetitions: mean and population standard deviation (as
 * the QUIC Steps study reports them), how many runs had a value, which summary field supplied it, and why runs
 * without a value have none.
 */
record Sample(Configuration configuration, List<Summary> runs, String metric, List<Double> values, Set<String> fields,
              String missing) {
    static Sample of(Configuration c, List<Summary> runs, String metric) {
        List<Double> values = new ArrayList<>();
        Set<String> fields = new LinkedHashSet<>();
        String missing = null;
        for (Summary s : runs) {
            Metrics.Value v = Metrics.of(metric, s);
            if (v.field() != null) {
                values.add(v.value());
                fields.add(v.field().jsonName());
            } else if (missing == null) {
                missing = v.missing();
            }
        }
        return new Sample(c, List.copyOf(runs), metric, List.copyOf(values), fields, missing);
    }

    int n() {
        return values.size();
    }

    double mean() {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** Population standard deviation; NaN for no value, 0 for one. */
    double std() {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double m = mean();
        double sum = 0;
        for (double v : values) {
            sum += (v - m) * (v - m);
        }
        return Math.sqrt(sum / values.size());
    }

    /** "37.3 ± 0.1 (n 3, relay, tcp-tls)". */
    String describe() {
        return Numbers.meanStd(mean(), n() > 1 ? std() : Double.NaN) + " (n " + n() + ", " + configuration.mode().word() + ", "
                + configuration.name() + (fields.size() == 1 && !fields.contains(metric) ? ", " + fields.iterator().next() : "") + ")";
    }

    /** The range of a numeric summary field over the runs, "a–b" or "a", or null when no run has it. */
    String range(SummaryField f) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Summary s : runs) {
            if (s.has(f)) {
                lo = Math.min(lo, s.number(f));
                hi = Math.max(hi, s.number(f));
            }
        }
        if (lo > hi) {
            return null;
        }
        return lo == hi ? Numbers.format(lo) : Numbers.format(lo) + "–" + Numbers.format(hi);
    }
}
