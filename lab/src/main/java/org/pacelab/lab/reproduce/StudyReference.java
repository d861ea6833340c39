package org.pacelab.lab.reproduce;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.pacelab.lab.scenario.Location;

/**
 * A study's published values as a reference file states them ({@code studies/NAME.yaml}): what the study is, the
 * catalog scenarios pacelab runs to measure it, and its claims — each a table cell, a share read off a figure or a
 * stated finding, with where the study says it.
 *
 * @param file       the reference file
 * @param id         the study's short name ({@code pacelab reproduce ID})
 * @param valuesFrom how the published values were obtained (the paper's tables, its artifacts, ...)
 */
public record StudyReference(Path file, String id, String title, String citation, String valuesFrom,
                             List<Campaign> campaigns, List<Claim> claims) {
    public StudyReference {
        campaigns = List.copyOf(campaigns);
        claims = List.copyOf(claims);
    }

    public Campaign campaign(String key) {
        return campaigns.stream().filter(c -> c.key().equals(key)).findFirst().orElse(null);
    }

    /**
     * A catalog scenario the study needs, and how {@code --quick} shrinks it.
     *
     * @param key      the name claims use for it
     * @param scenario the scenario file (relative paths are resolved against the reference file's directory)
     * @param quick    the reduced variant, or null when {@code --quick} leaves the campaign out
     * @param full     changes for the full run (e.g. fewer repetitions of a long sweep), or {@link Variant#NONE}
     */
    public record Campaign(String key, Path scenario, Variant quick, Variant full, Location at) {}

    /**
     * Changes to a scenario for one variant of a reproduction.
     *
     * @param repetitions repetitions, or 0 for the scenario's
     * @param size        bytes per stream, or 0 for the scenario's
     * @param only        implementations to keep (empty: all)
     * @param modes       modes to keep (empty: all)
     * @param sweep       sweep axes restricted to these values (an axis not named keeps its values)
     */
    public record Variant(int repetitions, long size, List<String> only, List<String> modes, Map<String, List<String>> sweep) {
        public static final Variant NONE = new Variant(0, 0, List.of(), List.of(), Map.of());

        public Variant {
            only = List.copyOf(only);
            modes = List.copyOf(modes);
            sweep = Map.copyOf(sweep);
        }
    }

    /**
     * One claim of the study.
     *
     * @param id        unique within the file
     * @param source    where the study says it: "Table 1", "Figure 3", "§5.2", ...
     * @param says      the claim in words
     * @param published the study's value or finding
     * @param measure   what pacelab measures for it
     * @param versus    the second measurement of a relation or a ratio, or null
     * @param agreement when pacelab's value counts as the study's
     */
    public record Claim(String id, String source, String says, Published published, Measure measure, Measure versus,
                        Agreement agreement, Location at) {}

    /** The kinds of claims, from what the study states. */
    public enum Kind {
        /** A number with a mean (and a standard deviation): a table cell. */
        VALUE,
        /** At least or at most a number: "more than 99.9 % of packets ...". */
        BOUND,
        /** One configuration's metric lower or higher than another's. */
        RELATION,
        /** A value relative to a reference configuration's (e.g. goodput relative to TCP/TLS on the same machine). */
        RATIO,
        /** The sweep value where a metric is largest (or smallest) lies in a range. */
        OPTIMUM,
        /** A metric rises or falls along a sweep. */
        TREND
    }

    /**
     * What the study published for a claim; which fields are set depends on the kind.
     *
     * @param mean        VALUE and RATIO: the published mean
     * @param std         the published standard deviation, or NaN
     * @param n           repetitions behind it, or 0 when not stated
     * @param unit        the unit the study uses (also the unit of absolute tolerances)
     * @param bound       BOUND: the limit; {@code atLeast} tells which side
     * @param higher      RELATION: true when the first measurement is the higher one; OPTIMUM: true for a maximum;
     *                    TREND: true for rising
     * @param values      RELATION: the two published values (empty when the study gives none)
     * @param reference   RATIO: the reference configuration's published value
     * @param range       OPTIMUM: the sweep values (numbers) the study's optimum lies in, lowest and highest
     */
    public record Published(Kind kind, double mean, double std, int n, String unit, double bound, boolean atLeast,
                            boolean higher, List<Double> values, double reference, List<Double> range) {
        public Published {
            values = List.copyOf(values);
            range = List.copyOf(range);
        }
    }

    /**
     * A measurement in a campaign: a configuration (implementation, sweep point, modes) and a metric.
     *
     * @param implementation the scenario's implementation name
     * @param point          sweep values the configuration must have (axis label → value)
     * @param modes          modes to report (empty: every mode the configuration ran in)
     * @param metric         a summary field or a derived metric (see {@link Metrics})
     * @param over           OPTIMUM and TREND: the sweep axis the claim runs along, or null
     */
    public record Measure(String campaign, String implementation, Map<String, String> point, List<String> modes,
                          String metric, String over, Location at) {
        public Measure {
            point = Map.copyOf(point);
            modes = List.copyOf(modes);
        }
    }

    /**
     * When a measured value agrees with the published one (VALUE, BOUND, RATIO).
     *
     * @param absolute largest absolute difference in the claim's unit, or NaN
     * @param relative largest difference as a share of the published value, or NaN
     * @param factor   largest ratio between the two (either way), or NaN
     */
    public record Agreement(double absolute, double relative, double factor) {
        public static final Agreement EXACT_BOUND = new Agreement(Double.NaN, Double.NaN, Double.NaN);

        /** Words for the report: "within 0.5 Mbit/s", "within 5 %", "within a factor of 2". */
        public String describe(String unit) {
            if (!Double.isNaN(absolute)) {
                return "within " + Numbers.format(absolute) + (unit.isEmpty() ? "" : " " + unit);
            }
            if (!Double.isNaN(relative)) {
                return "within " + Numbers.format(relative * 100) + " %";
            }
            if (!Double.isNaN(factor)) {
                return "within a factor of " + Numbers.format(factor);
            }
            return "the bound itself";
        }
    }
}
