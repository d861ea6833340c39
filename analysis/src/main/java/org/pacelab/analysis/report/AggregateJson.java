package org.pacelab.analysis.report;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.metrics.RunningStats;
import org.pacelab.analysis.summary.SummaryField;

/**
 * The numbers behind the report as JSON: per configuration, for each numeric summary field,
 * {@code <field>_mean}, {@code <field>_std} (population) and {@code <field>_n} (runs with a value); when no run
 * has a value, {@code <field>_mean} is null and {@code <field>_reason} repeats the first run's reason.
 */
final class AggregateJson {
    static final int VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AggregateJson() {}

    static String text(List<ConfigurationRuns> runs, List<ConfigurationAggregate> aggregates) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("report_version", VERSION);
        ArrayNode configs = root.putArray("configurations");
        for (int i = 0; i < aggregates.size(); i++) {
            ConfigurationAggregate a = aggregates.get(i);
            ObjectNode o = configs.addObject();
            o.put("configuration", a.name());
            o.put("runs", a.runs());
            ArrayNode ids = o.putArray("run_ids");
            runs.get(i).runs().forEach(r -> ids.add(r.runId()));
            for (SummaryField f : SummaryField.values()) {
                if (!f.numeric() || f == SummaryField.SUMMARY_VERSION) {
                    continue;
                }
                RunningStats s = a.stats(f);
                if (s.count() == 0) {
                    o.putNull(f.jsonName() + "_mean");
                    o.put(f.jsonName() + "_reason", firstReason(runs.get(i), f));
                } else {
                    o.put(f.jsonName() + "_mean", s.mean());
                    o.put(f.jsonName() + "_std", s.populationStd());
                }
                o.put(f.jsonName() + "_n", s.count());
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("aggregate serialisation failed", e);
        }
    }

    /** The reason the first run gives for a null field. */
    static String firstReason(ConfigurationRuns c, SummaryField f) {
        for (RunResult r : c.runs()) {
            String reason = r.summary().reason(f);
            if (reason != null) {
                return reason;
            }
        }
        return "no run has a value";
    }
}
