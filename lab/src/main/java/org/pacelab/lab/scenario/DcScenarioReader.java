package org.pacelab.lab.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.DcSpecParser;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

/**
 * Reads the dual-connectivity keys of a scenario and checks each value where it was written:
 * <pre>
 * link:
 *   dc:                     # two downlink paths behind a splitter and a reordering receiver (pacelab emulate --dc)
 *     batch: 100            # split, batch, ratio, t-reordering, reordering, single-path, sn, wire,
 *                           # wire-overhead, rate, delay, loss, queue (both paths: X or A:B, e.g. rate: 50mbit:10mbit)
 *     ratio: "9:1"
 *     a: {rate: 40mbit, delay: 10ms}     # path a's link fields (a mapping or "rate=40mbit delay=10ms")
 *     b: {rate: 8mbit, delay: 30ms}
 *   up: {delay: 10ms}       # the single uplink
 * flows: [dc, a, b]         # client/server pairs sharing the paths (or a number: 3 = dc, a, b); default [dc]
 * transfer:
 *   duration: 180s          # each pair downloads for this long (default 180 s unless transfer.size is given)
 * </pre>
 */
final class DcScenarioReader {
    static final List<String> DC_KEYS = List.of("split", "batch", "ratio", "t-reordering", "reordering", "single-path", "sn",
            "wire", "wire-overhead", "rate", "delay", "loss", "queue", "a", "b");

    private final Problems problems;

    DcScenarioReader(Problems problems) {
        this.problems = problems;
    }

    /**
     * @param dc       the {@code link.dc} entry, or null
     * @param flows    the top-level {@code flows} entry, or null
     * @param duration the {@code transfer.duration} entry, or null
     * @param sizeGiven whether {@code transfer.size} was given
     * @param link      the {@code link} mapping (to refuse preset and down beside dc), or null
     */
    DcScenario read(YamlNode.Entry dc, YamlNode.Entry flows, YamlNode.Entry duration, boolean sizeGiven, YamlNode.Mapping link) {
        if (dc == null) {
            if (flows != null) {
                problems.add(flows.keyAt(), "flows: several client/server pairs share a dual-connectivity link; add link.dc "
                        + "(e.g. link: {dc: {batch: 100, ratio: \"1:1\"}})");
            }
            if (duration != null) {
                problems.add(duration.keyAt(), "transfer.duration: fixed-duration downloads are for dual-connectivity runs "
                        + "(link.dc); give transfer.size instead");
            }
            return null;
        }
        for (String other : List.of("preset", "down")) {
            YamlNode.Entry e = link.entries().get(other);
            if (e != null) {
                problems.add(e.keyAt(), "link." + other + " does not apply with link.dc; the downlink is the two paths "
                        + "link.dc.a and link.dc.b (the uplink stays link.up)");
            }
        }
        if (!(dc.value() instanceof YamlNode.Mapping m)) {
            if (!(dc.value() instanceof YamlNode.Scalar s && s.isNull())) {
                problems.add(dc.value().at(), "link.dc must be a mapping such as {batch: 100, ratio: \"9:1\", a: {rate: 40mbit}}, "
                        + "found " + dc.value().kind());
            }
            return new DcScenario(Map.of(), Map.of(), Map.of(), defaultFlows(dc.keyAt()), durationNs(duration, sizeGiven),
                    dc.keyAt());
        }
        Map<String, Located<String>> fields = new LinkedHashMap<>();
        Map<String, Located<String>> a = Map.of(), b = Map.of();
        for (YamlNode.Entry e : m.entries().values()) {
            String key = e.key().toLowerCase(Locale.ROOT);
            switch (key) {
                case "a" -> a = path(e, "link.dc.a");
                case "b" -> b = path(e, "link.dc.b");
                default -> {
                    if (!DC_KEYS.contains(key)) {
                        problems.add(e.keyAt(), "unknown key '" + e.key() + "' in link.dc" + Suggestions.didYouMean(key, DC_KEYS)
                                + "; valid keys: " + String.join(", ", DC_KEYS));
                        continue;
                    }
                    String v = scalar(e.value(), "link.dc." + key);
                    if (v == null) {
                        continue;
                    }
                    try {
                        DcSpecParser.parse(key + "=" + v, null, null, null);
                        fields.put(key, new Located<>(v, e.value().at()));
                    } catch (SpecException ex) {
                        problems.add(e.value().at(), "link.dc." + ex.getMessage().substring("--dc ".length()));
                    }
                }
            }
        }
        return new DcScenario(fields, a, b, flows(flows, dc.keyAt()), durationNs(duration, sizeGiven), dc.keyAt());
    }

    private Map<String, Located<String>> path(YamlNode.Entry e, String where) {
        Map<String, Located<String>> out = new LinkedHashMap<>();
        List<String> keys = Arrays.stream(LinkSpecParser.KEYS.split(",\\s*")).toList();
        List<Map.Entry<String, Located<String>>> raw = new ArrayList<>();
        switch (e.value()) {
            case YamlNode.Mapping m -> {
                for (YamlNode.Entry f : m.entries().values()) {
                    String v = scalar(f.value(), where + "." + f.key());
                    if (v != null) raw.add(Map.entry(f.key().toLowerCase(Locale.ROOT), new Located<>(v, f.value().at())));
                }
            }
            case YamlNode.Scalar s when !s.isNull() -> {
                for (String token : s.text().strip().split("\\s+")) {
                    int eq = token.indexOf('=');
                    if (eq <= 0 || eq == token.length() - 1) {
                        problems.add(s.at(), where + ": '" + token + "' is not a key=value field; write e.g. \"rate=40mbit "
                                + "delay=10ms\" or a mapping");
                        continue;
                    }
                    raw.add(Map.entry(token.substring(0, eq).toLowerCase(Locale.ROOT), new Located<>(token.substring(eq + 1), s.at())));
                }
            }
            default -> problems.add(e.value().at(), where + " must be a mapping such as {rate: 40mbit, delay: 10ms} or a string "
                    + "such as \"rate=40mbit delay=10ms\", found " + e.value().kind());
        }
        for (Map.Entry<String, Located<String>> f : raw) {
            if (!keys.contains(f.getKey())) {
                problems.add(f.getValue().at(), "unknown key '" + f.getKey() + "' in " + where + Suggestions.didYouMean(f.getKey(), keys)
                        + "; valid keys: " + String.join(", ", keys));
                continue;
            }
            try {
                LinkSpecParser.apply(where, DcSpecParser.DEFAULT_PATH, f.getKey() + "=" + f.getValue().value());
                out.put(f.getKey(), f.getValue());
            } catch (SpecException ex) {
                problems.add(f.getValue().at(), ex.getMessage());
            }
        }
        return out;
    }

    private List<Located<DcFlowMode>> defaultFlows(Location at) {
        return List.of(new Located<>(DcFlowMode.DUAL, at));
    }

    private List<Located<DcFlowMode>> flows(YamlNode.Entry e, Location dcAt) {
        if (e == null) {
            return defaultFlows(dcAt);
        }
        List<Located<DcFlowMode>> out = new ArrayList<>();
        switch (e.value()) {
            case YamlNode.Scalar s when !s.isNull() -> {
                int n;
                try {
                    n = Integer.parseInt(s.text().strip());
                } catch (NumberFormatException ex) {
                    n = -1;
                }
                if (n < 1 || n > 16) {
                    problems.add(s.at(), "flows: '" + s.text() + "' is not a number of flows from 1 to 16 or a list such as "
                            + "[dc, a, b]");
                    return defaultFlows(dcAt);
                }
                for (int i = 0; i < n; i++) {
                    out.add(new Located<>(i == 0 ? DcFlowMode.DUAL : i % 2 == 1 ? DcFlowMode.PATH_A : DcFlowMode.PATH_B, s.at()));
                }
            }
            case YamlNode.Sequence q -> {
                for (YamlNode item : q.items()) {
                    String v = scalar(item, "flows");
                    if (v == null) continue;
                    try {
                        out.add(new Located<>(DcFlowMode.parse("flows", v), item.at()));
                    } catch (SpecException ex) {
                        problems.add(item.at(), ex.getMessage());
                    }
                }
                if (q.items().size() > 16) problems.add(q.at(), "flows: at most 16 client/server pairs");
            }
            default -> problems.add(e.value().at(), "flows must be a list such as [dc, a, b] or a number of flows, found "
                    + e.value().kind());
        }
        return out.isEmpty() ? defaultFlows(dcAt) : out;
    }

    private long durationNs(YamlNode.Entry e, boolean sizeGiven) {
        if (e == null) {
            return sizeGiven ? 0 : DcScenario.DEFAULT_DURATION_NS;
        }
        String v = scalar(e.value(), "transfer.duration");
        if (v == null) return DcScenario.DEFAULT_DURATION_NS;
        try {
            long ns = Units.parseDuration("transfer.duration", v);
            if (ns < 1_000_000_000L) {
                problems.add(e.value().at(), "transfer.duration: '" + v + "' is shorter than 1 s; give e.g. 20s or 180s");
            }
            return ns;
        } catch (SpecException ex) {
            problems.add(e.value().at(), ex.getMessage());
            return DcScenario.DEFAULT_DURATION_NS;
        }
    }

    private String scalar(YamlNode n, String path) {
        if (n instanceof YamlNode.Scalar s && !s.isNull()) {
            return s.text().strip();
        }
        problems.add(n.at(), path + " must be a single value, found " + (n instanceof YamlNode.Scalar ? "nothing" : n.kind()));
        return null;
    }
}
