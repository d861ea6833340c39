package org.pacelab.lab.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.pacelab.lab.scenario.DcScenario;
import org.pacelab.lab.scenario.Located;
import org.pacelab.lab.scenario.Problems;
import org.pacelab.lab.scenario.Scenario;
import org.pacelab.lab.scenario.ScenarioReader;
import org.pacelab.lab.scenario.Suggestions;
import org.pacelab.lab.scenario.SweepAxis;
import org.pacelab.lab.scenario.Transfer;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.spec.SpecException;

/** Planning of dual-connectivity scenarios: sweep keys {@code link.dc.FIELD} and the resolved {@link DcSetup}. */
final class DcPlanning {
    /** What each client of a fixed-duration run asks for: more than any path here can carry in a run (files are sparse). */
    static final long DURATION_RUN_BYTES = 64L << 30;
    private static final List<String> SCALAR_KEYS = List.of("split", "batch", "ratio", "t-reordering", "reordering",
            "single-path", "sn", "wire", "wire-overhead", "rate", "delay", "loss", "queue");

    private DcPlanning() {}

    /** Whether {@code link.dc.FIELD} can be swept; every value is checked where it was written. */
    static boolean checkSweep(SweepAxis s, String field, Scenario scenario, Problems problems) {
        if (scenario.dc() == null) {
            problems.add(s.key().at(), "sweep: '" + s.key().value() + "' needs a dual-connectivity link; add link.dc");
            return false;
        }
        String target = null, key = field;
        int dot = field.indexOf('.');
        if (dot > 0) {
            target = field.substring(0, dot);
            key = field.substring(dot + 1);
        }
        List<String> valid = new ArrayList<>(SCALAR_KEYS);
        ScenarioReader.LINK_FIELD_KEYS.forEach(k -> { valid.add("a." + k); valid.add("b." + k); });
        boolean known = target == null ? SCALAR_KEYS.contains(key)
                : (target.equals("a") || target.equals("b")) && ScenarioReader.LINK_FIELD_KEYS.contains(key);
        if (!known) {
            problems.add(s.key().at(), "sweep: unknown dual-connectivity field '" + field + "' in '" + s.key().value() + "'"
                    + Suggestions.didYouMean(field, valid) + "; valid: " + String.join(", ", SCALAR_KEYS)
                    + ", a.FIELD and b.FIELD (link fields)");
            return false;
        }
        boolean ok = true;
        for (Located<String> v : s.values()) {
            try {
                if (target == null) {
                    DcSpecParser.parse(key + "=" + v.value().strip(), null, null, null);
                } else {
                    DcSpecParser.parse(null, target.equals("a") ? key + "=" + v.value().strip() : null,
                            target.equals("b") ? key + "=" + v.value().strip() : null, null);
                }
            } catch (SpecException e) {
                problems.add(v.at(), "sweep " + s.key().value() + ": " + e.getMessage());
                ok = false;
            }
        }
        return ok;
    }

    /**
     * The configuration's link: the scenario's {@code link.dc} with this sweep point's {@code link.dc.*} values, the
     * scenario's uplink fields {@code up}; trace files resolved against the scenario's directory and checked.
     */
    static DcSetup setup(Scenario scenario, Map<String, Located<String>> point, Map<String, Located<String>> up,
                         UnaryOperator<String> resolve, Problems problems) {
        DcScenario d = scenario.dc();
        Map<String, Located<String>> fields = new LinkedHashMap<>(d.fields());
        Map<String, Located<String>> a = new LinkedHashMap<>(d.a()), b = new LinkedHashMap<>(d.b());
        point.forEach((field, v) -> {
            if (field.startsWith("a.")) a.put(field.substring(2), v);
            else if (field.startsWith("b.")) b.put(field.substring(2), v);
            else fields.put(field, v);
        });
        boolean ok = traceExists("link.dc.a", a, resolve, problems) & traceExists("link.dc.b", b, resolve, problems)
                & traceExists("link.up", up, resolve, problems);
        if (!ok) {
            return null;
        }
        String dcText = text(fields, resolve), aText = text(a, resolve), bText = text(b, resolve), upText = text(up, resolve);
        DcSpec spec;
        try {
            spec = DcSpecParser.parse(dcText, aText, bText, upText);
        } catch (SpecException e) {
            problems.add(d.at(), "link.dc: " + e.getMessage());
            return null;
        }
        List<DcFlowMode> flows = d.flows().stream().map(Located::value).toList();
        return new DcSetup(spec, dcText, aText, bText, flows, d.durationNs());
    }

    private static boolean traceExists(String where, Map<String, Located<String>> fields, UnaryOperator<String> resolve,
                                       Problems problems) {
        Located<String> t = fields.get("trace");
        if (t == null) {
            return true;
        }
        String path = resolve.apply(t.value().strip());
        if (Files.isRegularFile(Path.of(path))) {
            return true;
        }
        problems.add(t.at(), where + ".trace: " + path + " does not exist (a relative path starts at the scenario file's "
                + "directory; the LTE traces are in ../shared/traces next to the checkout)");
        return false;
    }

    private static String text(Map<String, Located<String>> m, UnaryOperator<String> resolve) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, k.equals("trace") ? resolve.apply(v.value().strip()) : v.value().strip()));
        return DcScenario.text(out);
    }

    /** The link as one line for the store's link column. */
    static String describe(DcSetup dc) {
        return "dc " + dc.spec().format() + " | a " + dc.spec().a().format() + " | b " + dc.spec().b().format() + " | flows "
                + dc.flowWords() + (dc.durationNs() > 0 ? " | duration " + dc.durationNs() / 1_000_000_000L + "s" : "");
    }

    /** A fixed-duration run: its duration plus 90 s; otherwise 60 s plus four times the transfer at the paths' rates. */
    static long defaultTimeout(DcSetup dc, Transfer t) {
        if (dc.durationNs() > 0) {
            return dc.durationNs() + 90_000_000_000L;
        }
        long rate = Arrays.stream(new long[] {dc.spec().a().rateBps(), dc.spec().b().rateBps()}).sum();
        if (rate <= 0) rate = CampaignPlanner.UNSHAPED_RATE_FOR_TIMEOUT;
        double seconds = 8.0 * t.totalBytes() * dc.flows().size() / rate;
        return CampaignPlanner.DEFAULT_TIMEOUT_FLOOR_NS + (long) (4 * seconds * 1e9);
    }
}
