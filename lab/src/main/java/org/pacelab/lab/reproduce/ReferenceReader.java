package org.pacelab.lab.reproduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.pacelab.lab.reproduce.StudyReference.Agreement;
import org.pacelab.lab.reproduce.StudyReference.Campaign;
import org.pacelab.lab.reproduce.StudyReference.Claim;
import org.pacelab.lab.reproduce.StudyReference.Kind;
import org.pacelab.lab.reproduce.StudyReference.Measure;
import org.pacelab.lab.reproduce.StudyReference.Published;
import org.pacelab.lab.reproduce.StudyReference.Variant;
import org.pacelab.lab.scenario.Location;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.scenario.Problems;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.scenario.Suggestions;
import org.pacelab.lab.scenario.YamlNode;
import org.pacelab.lab.scenario.YamlTree;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

/**
 * Reads a study's reference file and checks its form: known keys (with "did you mean"), every claim's kind from
 * what its {@code study} mapping states, the fields that kind needs, numbers, campaign names and metric names.
 * Every problem is one sentence starting with {@code file:line:column}; all are reported together. Whether a claim's
 * implementation and sweep point exist is checked against the campaigns' plans ({@link Reproduction}).
 */
public final class ReferenceReader {
    static final List<String> TOP_KEYS = List.of("study", "title", "citation", "values-from", "campaigns", "claims");
    static final List<String> CAMPAIGN_KEYS = List.of("scenario", "quick", "full");
    static final List<String> VARIANT_KEYS = List.of("repetitions", "size", "only", "mode", "sweep");
    static final List<String> CLAIM_KEYS = List.of("id", "source", "says", "study", "pacelab", "versus", "agree");
    static final List<String> STUDY_KEYS = List.of("mean", "std", "n", "unit", "at-least", "at-most", "relation", "values",
            "relative-to", "optimum", "range", "trend");
    static final List<String> MEASURE_KEYS = List.of("campaign", "implementation", "point", "mode", "metric", "over");
    static final List<String> AGREE_KEYS = List.of("within", "factor");

    private final String source;
    private final Path file;
    private final Problems problems = new Problems();

    private ReferenceReader(Path file) {
        this.file = file;
        this.source = file.toString();
    }

    public static StudyReference read(Path file) throws ScenarioException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ScenarioException(List.of(file + ": cannot read the study's reference file: " + e.getMessage()));
        }
        return new ReferenceReader(file).reference(text);
    }

    private StudyReference reference(String text) throws ScenarioException {
        YamlNode root = YamlTree.parse(source, text);
        if (!(root instanceof YamlNode.Mapping top)) {
            throw new ScenarioException(root.at(), "a study's reference file is a mapping (study, title, citation, campaigns, "
                    + "claims), found " + root.kind());
        }
        allowOnly(top, "", TOP_KEYS);
        String id = requiredString(top, "study", "the study's short name, e.g. quic-steps");
        String title = requiredString(top, "title", "the study's title");
        String citation = requiredString(top, "citation", "authors, venue, year and DOI");
        String valuesFrom = optionalString(top, "values-from", "");
        List<Campaign> campaigns = campaigns(top);
        Set<String> campaignKeys = new HashSet<>();
        campaigns.forEach(c -> campaignKeys.add(c.key()));
        List<Claim> claims = claims(top, campaignKeys);
        problems.throwIfAny();
        return new StudyReference(file, id, title, citation, valuesFrom, campaigns, claims);
    }

    // ---- campaigns ------------------------------------------------------------------------------------------

    private List<Campaign> campaigns(YamlNode.Mapping top) {
        List<Campaign> out = new ArrayList<>();
        YamlNode.Entry e = top.entries().get("campaigns");
        if (e == null) {
            problems.add(top.at(), "campaigns: missing; name each catalog scenario the study needs, e.g. "
                    + "campaigns: {baseline: {scenario: ../scenarios/quic-steps-baseline.yaml}}");
            return out;
        }
        if (!(e.value() instanceof YamlNode.Mapping m) || m.entries().isEmpty()) {
            problems.add(e.value().at(), "campaigns: must be a mapping of names to {scenario: FILE, quick: ..., full: ...}");
            return out;
        }
        for (YamlNode.Entry c : m.entries().values()) {
            if (!(c.value() instanceof YamlNode.Mapping cm)) {
                problems.add(c.value().at(), "campaigns." + c.key() + ": must be a mapping with scenario (and quick, full)");
                continue;
            }
            allowOnly(cm, "campaigns." + c.key() + ".", CAMPAIGN_KEYS);
            String scenario = requiredString(cm, "scenario", "the scenario file, relative to this file");
            if (scenario == null) {
                continue;
            }
            Path p = file.toAbsolutePath().getParent().resolve(scenario).normalize();
            if (!Files.isRegularFile(p)) {
                problems.add(valueAt(cm, "scenario"), "campaigns." + c.key() + ".scenario: " + p + " does not exist");
            }
            YamlNode.Entry quick = cm.entries().get("quick");
            Variant q = Variant.NONE;
            if (quick != null) {
                q = quick.value() instanceof YamlNode.Scalar s && "off".equals(s.text()) ? null
                        : variant(quick.value(), "campaigns." + c.key() + ".quick");
            }
            YamlNode.Entry full = cm.entries().get("full");
            Variant f = full == null ? Variant.NONE : variant(full.value(), "campaigns." + c.key() + ".full");
            out.add(new Campaign(c.key(), p, q, f, c.keyAt()));
        }
        return out;
    }

    private Variant variant(YamlNode node, String where) {
        if (!(node instanceof YamlNode.Mapping m)) {
            problems.add(node.at(), where + ": must be a mapping (repetitions, size, only, mode, sweep) or 'off'");
            return Variant.NONE;
        }
        allowOnly(m, where + ".", VARIANT_KEYS);
        int repetitions = 0;
        String r = optionalString(m, "repetitions", null);
        if (r != null) {
            try {
                repetitions = Integer.parseInt(r.strip());
                if (repetitions < 1) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException ex) {
                problems.add(valueAt(m, "repetitions"), where + ".repetitions: '" + r + "' must be a whole number of at least 1");
            }
        }
        long size = 0;
        String s = optionalString(m, "size", null);
        if (s != null) {
            try {
                size = Units.parseSize(where + ".size", s);
            } catch (SpecException ex) {
                problems.add(valueAt(m, "size"), ex.getMessage());
            }
        }
        List<String> only = strings(m, "only", where);
        List<String> modes = strings(m, "mode", where);
        for (String mode : modes) {
            if (Mode.parse(mode) == null) {
                problems.add(valueAt(m, "mode"), where + ".mode: '" + mode + "' is not a mode; modes: " + String.join(", ", Mode.words()));
            }
        }
        Map<String, List<String>> sweep = new LinkedHashMap<>();
        YamlNode.Entry se = m.entries().get("sweep");
        if (se != null) {
            if (se.value() instanceof YamlNode.Mapping sm) {
                for (YamlNode.Entry axis : sm.entries().values()) {
                    sweep.put(axis.key(), list(axis.value(), where + ".sweep." + axis.key()));
                }
            } else {
                problems.add(se.value().at(), where + ".sweep: must map sweep axes to the values to keep, e.g. {pacer: [interval]}");
            }
        }
        return new Variant(repetitions, size, only, modes, sweep);
    }

    // ---- claims ---------------------------------------------------------------------------------------------

    private List<Claim> claims(YamlNode.Mapping top, Set<String> campaigns) {
        List<Claim> out = new ArrayList<>();
        YamlNode.Entry e = top.entries().get("claims");
        if (e == null) {
            problems.add(top.at(), "claims: missing; list the study's claims, each with id, source, says, study, pacelab");
            return out;
        }
        if (!(e.value() instanceof YamlNode.Sequence seq) || seq.items().isEmpty()) {
            problems.add(e.value().at(), "claims: must be a list of claims");
            return out;
        }
        Map<String, Location> ids = new LinkedHashMap<>();
        for (YamlNode item : seq.items()) {
            if (!(item instanceof YamlNode.Mapping c)) {
                problems.add(item.at(), "claims: each claim is a mapping (id, source, says, study, pacelab, versus, agree), found "
                        + item.kind());
                continue;
            }
            Claim claim = claim(c, campaigns);
            if (claim == null) {
                continue;
            }
            Location previous = ids.putIfAbsent(claim.id(), claim.at());
            if (previous != null) {
                problems.add(claim.at(), "claim '" + claim.id() + "': the id is used twice (first at line " + previous.line()
                        + "); ids must be unique");
            }
            out.add(claim);
        }
        return out;
    }

    private Claim claim(YamlNode.Mapping c, Set<String> campaigns) {
        allowOnly(c, "claim.", CLAIM_KEYS);
        String id = requiredString(c, "id", "a unique name, e.g. table1.tcp-tls.goodput");
        String name = "claim '" + (id == null ? "?" : id) + "'";
        String source = requiredString(c, "source", "where the study says it: a table, a figure or a section");
        String says = requiredString(c, "says", "the claim in words");
        YamlNode.Mapping study = mapping(c, "study", name);
        YamlNode.Mapping pacelab = mapping(c, "pacelab", name);
        if (id == null || study == null || pacelab == null) {
            return null;
        }
        Published published = published(study, name);
        Measure measure = measure(pacelab, name + " pacelab", campaigns);
        Measure versus = null;
        YamlNode.Entry v = c.entries().get("versus");
        if (v != null) {
            versus = v.value() instanceof YamlNode.Mapping vm ? measure(vm, name + " versus", campaigns) : null;
            if (versus == null && !(v.value() instanceof YamlNode.Mapping)) {
                problems.add(v.value().at(), name + ": versus must be a mapping like pacelab (campaign, implementation, metric)");
            }
        }
        Agreement agreement = agreement(c, name, published);
        if (published == null || measure == null) {
            return null;
        }
        Kind k = published.kind();
        if ((k == Kind.RELATION || k == Kind.RATIO) && versus == null && v == null) {
            problems.add(c.at(), name + ": a " + k.name().toLowerCase(Locale.ROOT) + " claim needs versus: the configuration "
                    + "pacelab's value is compared with");
        }
        if ((k == Kind.OPTIMUM || k == Kind.TREND) && measure.over() == null) {
            problems.add(pacelab.at(), name + ": an " + (k == Kind.TREND ? "trend" : "optimum") + " claim needs pacelab.over: "
                    + "the sweep axis it runs along, e.g. link.dc.batch");
        }
        return new Claim(id, source, says, published, measure, versus, agreement, c.at());
    }

    private Published published(YamlNode.Mapping s, String name) {
        allowOnly(s, name + " study.", STUDY_KEYS);
        String unit = optionalString(s, "unit", "");
        double mean = number(s, "mean", name);
        double std = number(s, "std", name);
        double n = number(s, "n", name);
        Map<String, YamlNode.Entry> e = s.entries();
        if (e.containsKey("relation")) {
            String r = optionalString(s, "relation", "");
            if (!r.equals("lower") && !r.equals("higher")) {
                problems.add(valueAt(s, "relation"), name + ": study.relation '" + r + "' must be lower or higher");
                return null;
            }
            List<Double> values = numbers(s, "values", name);
            if (!values.isEmpty() && values.size() != 2) {
                problems.add(valueAt(s, "values"), name + ": study.values lists the two published values (this one, the other)");
            }
            return new Published(Kind.RELATION, Double.NaN, Double.NaN, 0, unit, Double.NaN, false, r.equals("higher"), values,
                    Double.NaN, List.of());
        }
        if (e.containsKey("optimum")) {
            String o = optionalString(s, "optimum", "");
            if (!o.equals("max") && !o.equals("min")) {
                problems.add(valueAt(s, "optimum"), name + ": study.optimum '" + o + "' must be max or min");
                return null;
            }
            List<Double> range = numbers(s, "range", name);
            if (range.size() != 2 || range.get(0) > range.get(1)) {
                problems.add(e.containsKey("range") ? valueAt(s, "range") : s.at(), name
                        + ": study.range must list the lowest and the highest sweep value of the published optimum, e.g. [100, 150]");
                return null;
            }
            return new Published(Kind.OPTIMUM, Double.NaN, Double.NaN, 0, unit, Double.NaN, false, o.equals("max"), List.of(),
                    Double.NaN, range);
        }
        if (e.containsKey("trend")) {
            String t = optionalString(s, "trend", "");
            if (!t.equals("rising") && !t.equals("falling")) {
                problems.add(valueAt(s, "trend"), name + ": study.trend '" + t + "' must be rising or falling");
                return null;
            }
            return new Published(Kind.TREND, Double.NaN, Double.NaN, 0, unit, Double.NaN, false, t.equals("rising"), List.of(),
                    Double.NaN, List.of());
        }
        if (e.containsKey("at-least") || e.containsKey("at-most")) {
            if (e.containsKey("at-least") && e.containsKey("at-most")) {
                problems.add(s.at(), name + ": study gives at-least and at-most; a bound claim has one of them");
                return null;
            }
            boolean atLeast = e.containsKey("at-least");
            double bound = number(s, atLeast ? "at-least" : "at-most", name);
            return new Published(Kind.BOUND, Double.NaN, Double.NaN, 0, unit, bound, atLeast, false, List.of(), Double.NaN, List.of());
        }
        if (e.containsKey("mean")) {
            if (Double.isNaN(mean)) {
                return null;
            }
            if (e.containsKey("relative-to")) {
                double reference = number(s, "relative-to", name);
                return new Published(Kind.RATIO, mean, std, (int) (Double.isNaN(n) ? 0 : n), unit, Double.NaN, false, false,
                        List.of(), reference, List.of());
            }
            return new Published(Kind.VALUE, mean, std, (int) (Double.isNaN(n) ? 0 : n), unit, Double.NaN, false, false,
                    List.of(), Double.NaN, List.of());
        }
        problems.add(s.at(), name + ": study states no value; give mean (with std, n, unit), at-least or at-most, "
                + "relation (lower|higher), mean with relative-to, optimum (max|min) with range, or trend (rising|falling)");
        return null;
    }

    private Measure measure(YamlNode.Mapping m, String name, Set<String> campaigns) {
        allowOnly(m, name + ".", MEASURE_KEYS);
        String campaign = requiredString(m, "campaign", "one of the campaigns above");
        String implementation = requiredString(m, "implementation", "an implementation name of the campaign's scenario");
        String metric = requiredString(m, "metric", "a summary field such as drops, or goodput");
        if (campaign != null && !campaigns.contains(campaign)) {
            problems.add(valueAt(m, "campaign"), name + ": campaign '" + campaign + "' is not one of the campaigns above"
                    + Suggestions.didYouMean(campaign, campaigns) + "; campaigns: " + String.join(", ", campaigns));
        }
        if (metric != null && Metrics.fields(metric) == null) {
            problems.add(valueAt(m, "metric"), name + ": metric '" + metric + "' is unknown" + Suggestions.didYouMean(metric, Metrics.names())
                    + "; metrics are goodput and the numeric run-summary fields (docs/analysis-summary-schema.md)");
        }
        Map<String, String> point = new LinkedHashMap<>();
        YamlNode.Entry p = m.entries().get("point");
        if (p != null) {
            if (p.value() instanceof YamlNode.Mapping pm) {
                for (YamlNode.Entry axis : pm.entries().values()) {
                    if (axis.value() instanceof YamlNode.Scalar sc && sc.text() != null) {
                        point.put(axis.key(), sc.text());
                    } else {
                        problems.add(axis.value().at(), name + ".point." + axis.key() + ": must be one sweep value");
                    }
                }
            } else {
                problems.add(p.value().at(), name + ".point: must map sweep axes to values, e.g. {cc: cubic}");
            }
        }
        List<String> modes = strings(m, "mode", name);
        for (String mode : modes) {
            if (Mode.parse(mode) == null) {
                problems.add(valueAt(m, "mode"), name + ".mode: '" + mode + "' is not a mode; modes: " + String.join(", ", Mode.words()));
            }
        }
        String over = optionalString(m, "over", null);
        if (campaign == null || implementation == null || metric == null) {
            return null;
        }
        return new Measure(campaign, implementation, point, modes, metric, over, m.at());
    }

    private Agreement agreement(YamlNode.Mapping c, String name, Published p) {
        YamlNode.Entry e = c.entries().get("agree");
        boolean needed = p != null && (p.kind() == Kind.VALUE || p.kind() == Kind.RATIO);
        if (e == null) {
            if (needed) {
                problems.add(c.at(), name + ": agree: missing; say when pacelab's value counts as the study's: {within: 0.5} "
                        + "(absolute, in the claim's unit), {within: 5%} or {factor: 2}");
            }
            return Agreement.EXACT_BOUND;
        }
        if (!(e.value() instanceof YamlNode.Mapping a) || a.entries().size() != 1) {
            problems.add(e.value().at(), name + ": agree must be one of {within: 0.5}, {within: 5%}, {factor: 2}");
            return Agreement.EXACT_BOUND;
        }
        allowOnly(a, name + " agree.", AGREE_KEYS);
        if (a.entries().containsKey("factor")) {
            double f = number(a, "factor", name);
            if (!(f > 1)) {
                problems.add(valueAt(a, "factor"), name + ": agree.factor must be a number above 1, e.g. 2");
                return Agreement.EXACT_BOUND;
            }
            return new Agreement(Double.NaN, Double.NaN, f);
        }
        String w = optionalString(a, "within", null);
        if (w == null) {
            return Agreement.EXACT_BOUND;
        }
        String t = w.strip();
        try {
            if (t.endsWith("%")) {
                double pct = Double.parseDouble(t.substring(0, t.length() - 1).strip());
                if (!(pct >= 0)) {
                    throw new NumberFormatException();
                }
                return new Agreement(Double.NaN, pct / 100, Double.NaN);
            }
            double abs = Double.parseDouble(t);
            if (!(abs >= 0)) {
                throw new NumberFormatException();
            }
            return new Agreement(abs, Double.NaN, Double.NaN);
        } catch (NumberFormatException ex) {
            problems.add(valueAt(a, "within"), name + ": agree.within '" + w + "' must be a number (in the claim's unit) or a "
                    + "percentage like 5%");
            return Agreement.EXACT_BOUND;
        }
    }

    // ---- YAML helpers ---------------------------------------------------------------------------------------

    private void allowOnly(YamlNode.Mapping m, String prefix, Collection<String> keys) {
        for (YamlNode.Entry e : m.entries().values()) {
            if (!keys.contains(e.key())) {
                problems.add(e.keyAt(), prefix + e.key() + ": unknown key" + Suggestions.didYouMean(e.key(), keys)
                        + "; valid keys: " + String.join(", ", keys));
            }
        }
    }

    private String requiredString(YamlNode.Mapping m, String key, String what) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null) {
            problems.add(m.at(), key + ": missing (" + what + ")");
            return null;
        }
        if (!(e.value() instanceof YamlNode.Scalar s) || s.text() == null || s.text().isBlank()) {
            problems.add(e.value().at(), key + ": must be a non-empty value (" + what + ")");
            return null;
        }
        return s.text().strip();
    }

    private String optionalString(YamlNode.Mapping m, String key, String fallback) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null) {
            return fallback;
        }
        if (!(e.value() instanceof YamlNode.Scalar s) || s.text() == null) {
            problems.add(e.value().at(), key + ": must be a single value, found " + e.value().kind());
            return fallback;
        }
        return s.text().strip();
    }

    private YamlNode.Mapping mapping(YamlNode.Mapping m, String key, String name) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null) {
            problems.add(m.at(), name + ": " + key + " missing");
            return null;
        }
        if (!(e.value() instanceof YamlNode.Mapping v)) {
            problems.add(e.value().at(), name + ": " + key + " must be a mapping, found " + e.value().kind());
            return null;
        }
        return v;
    }

    /** A number, or NaN when the key is absent (a malformed one is a problem). */
    private double number(YamlNode.Mapping m, String key, String name) {
        String t = optionalString(m, key, null);
        if (t == null) {
            return Double.NaN;
        }
        try {
            double v = Double.parseDouble(t);
            if (!Double.isFinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException ex) {
            problems.add(valueAt(m, key), name + ": " + key + " '" + t + "' is not a number");
            return Double.NaN;
        }
    }

    private List<Double> numbers(YamlNode.Mapping m, String key, String name) {
        List<Double> out = new ArrayList<>();
        for (String t : list(m.entries().containsKey(key) ? m.entries().get(key).value() : null, name + " " + key)) {
            try {
                out.add(Double.parseDouble(t));
            } catch (NumberFormatException ex) {
                problems.add(valueAt(m, key), name + ": " + key + " '" + t + "' is not a number");
            }
        }
        return out;
    }

    private List<String> strings(YamlNode.Mapping m, String key, String where) {
        YamlNode.Entry e = m.entries().get(key);
        return e == null ? List.of() : list(e.value(), where + "." + key);
    }

    /** A scalar or a list of scalars as strings. */
    private List<String> list(YamlNode node, String where) {
        List<String> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (node instanceof YamlNode.Scalar s && s.text() != null) {
            out.add(s.text().strip());
            return out;
        }
        if (node instanceof YamlNode.Sequence seq) {
            for (YamlNode i : seq.items()) {
                if (i instanceof YamlNode.Scalar s && s.text() != null) {
                    out.add(s.text().strip());
                } else {
                    problems.add(i.at(), where + ": list items must be single values");
                }
            }
            return out;
        }
        problems.add(node.at(), where + ": must be a value or a list of values");
        return out;
    }

    private static Location valueAt(YamlNode.Mapping m, String key) {
        YamlNode.Entry e = m.entries().get(key);
        return e == null ? m.at() : e.value().at();
    }
}
