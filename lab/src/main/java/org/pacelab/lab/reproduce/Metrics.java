package org.pacelab.lab.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;

/**
 * The metrics a claim may name: every numeric field of the run summary by its JSON name, and {@code goodput}, which
 * is the client log's request-to-last-byte goodput where the client writes one (pacelab) and the client process's
 * wall-time goodput otherwise (curl, ngtcp2, ...), the way the QUIC Steps study timed its clients.
 */
public final class Metrics {
    /** Derived metrics: name → the summary fields tried in order. */
    private static final Map<String, List<SummaryField>> DERIVED = Map.of(
            "goodput", List.of(SummaryField.GOODPUT_APP_MBPS, SummaryField.GOODPUT_WALL_MBPS));

    private Metrics() {}

    /** The summary fields behind a metric name, in the order they are tried, or null for an unknown name. */
    public static List<SummaryField> fields(String name) {
        List<SummaryField> d = DERIVED.get(name);
        if (d != null) {
            return d;
        }
        SummaryField f = SummaryField.byJsonName(name);
        return f != null && f.numeric() && f != SummaryField.SUMMARY_VERSION ? List.of(f) : null;
    }

    /** Every valid metric name, for error messages. */
    public static List<String> names() {
        List<String> out = new ArrayList<>(DERIVED.keySet());
        for (SummaryField f : SummaryField.values()) {
            if (f.numeric() && f != SummaryField.SUMMARY_VERSION) {
                out.add(f.jsonName());
            }
        }
        return out;
    }

    /**
     * A run's value of the metric: the first of its fields the run has.
     *
     * @return the field and value, or a reason why the run has none
     */
    public static Value of(String name, Summary s) {
        List<SummaryField> fields = fields(name);
        StringBuilder why = new StringBuilder();
        for (SummaryField f : fields) {
            if (s.has(f)) {
                return new Value(f, s.number(f), null);
            }
            String r = s.reason(f);
            if (why.isEmpty() && r != null) {
                why.append(f.jsonName()).append(": ").append(r);
            }
        }
        return new Value(null, Double.NaN, why.isEmpty() ? "the run's summary has no " + name : why.toString());
    }

    /** A run's value of a metric, or why it has none. */
    public record Value(SummaryField field, double value, String missing) {}
}
