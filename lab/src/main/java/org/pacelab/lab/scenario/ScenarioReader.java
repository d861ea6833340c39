package org.pacelab.lab.scenario;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.pacelab.net.driver.WarmUp;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;
import org.pacelab.net.spec.Units;

/**
 * Reads a scenario file and checks its form: known keys (a misspelt key gets "did you mean"), value types, units
 * and ranges. Every problem names file:line:column and the key; all problems are reported together.
 */
public final class ScenarioReader {
    /** The link keys a direction override may use (those of {@code pacelab emulate --down}). */
    public static final List<String> LINK_FIELD_KEYS = Arrays.stream(LinkSpecParser.KEYS.split(",\\s*")).toList();
    public static final long DEFAULT_SIZE = 10L << 20;

    private final String source;
    private final Problems problems = new Problems();

    private ScenarioReader(String source) {
        this.source = source;
    }

    public static Scenario read(Path file) throws ScenarioException {
        return read(file, false);
    }

    /**
     * @param quick read the scenario's quick subset: the keys of its {@code quick} mapping replace the top-level ones
     *              (its name gets {@code -quick}, so its results go elsewhere)
     */
    public static Scenario read(Path file, boolean quick) throws ScenarioException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ScenarioException(List.of(file + ": cannot read the scenario file: " + e.getMessage()));
        }
        return parse(file.toString(), text, quick);
    }

    public static Scenario parse(String source, String text) throws ScenarioException {
        return parse(source, text, false);
    }

    public static Scenario parse(String source, String text, boolean quick) throws ScenarioException {
        return new ScenarioReader(source).scenario(text, quick);
    }

    private Scenario scenario(String text, boolean quick) throws ScenarioException {
        YamlNode root = YamlTree.parse(source, text);
        if (!(root instanceof YamlNode.Mapping file)) {
            throw new ScenarioException(root.at(), "a scenario is a mapping of keys (name, link, transfer, implementations, ...), "
                    + "found " + root.kind());
        }
        allowOnly(file, "", Scenario.KEYS);
        if (quick && !file.entries().containsKey("quick")) {
            throw new ScenarioException(file.at(), "--quick: this scenario has no quick section (a mapping of scenario keys, "
                    + "e.g. {repetitions: 1, sweep: ...}, that replace the file's for a short run); run it without --quick");
        }
        YamlNode.Mapping top = quick ? quickSubset(file) : file;
        if (!quick) {
            quickSubset(file);
        }
        String name = string(top, "name", defaultName());
        if (quick && name != null) {
            name = name + "-quick";
        }
        if (name != null && !name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            problems.add(at(top, "name"), "name: '" + name + "' must be letters, digits, '.', '_' or '-' (it names the results directory)");
        }
        String description = string(top, "description", "");
        String reproduces = string(top, "reproduces", "");
        List<Located<Mode>> modes = modes(top, "mode");
        if (modes.isEmpty()) {
            modes = List.of(new Located<>(Mode.RELAY, top.at()));
        }

        Located<String> preset = new Located<>("none", top.at());
        Map<String, Located<String>> down = Map.of();
        Map<String, Located<String>> up = Map.of();
        YamlNode.Mapping link = mapping(top, "link");
        if (link != null) {
            allowOnly(link, "link.", Scenario.LINK_KEYS);
            String p = string(link, "preset", "none");
            preset = new Located<>(p, valueAt(link, "preset"));
            down = direction(link, "down");
            up = direction(link, "up");
        }
        YamlNode.Entry dcEntry = link == null ? null : link.entries().get("dc");

        long size = DEFAULT_SIZE;
        int streams = 1;
        Location sizeAt = top.at();
        Location streamsAt = top.at();
        Location transferAt = top.at();
        YamlNode.Mapping transfer = mapping(top, "transfer");
        if (transfer != null) {
            transferAt = transfer.at();
            allowOnly(transfer, "transfer.", Scenario.TRANSFER_KEYS);
            String s = string(transfer, "size", null);
            if (s != null) {
                sizeAt = valueAt(transfer, "size");
                Long parsed = size("transfer.size", s, sizeAt);
                if (parsed != null) {
                    size = parsed;
                }
            }
            if (transfer.entries().containsKey("streams")) {
                streamsAt = valueAt(transfer, "streams");
                streams = (int) integer(transfer, "streams", 1, 1, 1000);
            }
        }

        DcScenario dc = new DcScenarioReader(problems).read(dcEntry, top.entries().get("flows"),
                transfer == null ? null : transfer.entries().get("duration"), transfer != null && transfer.entries().containsKey("size"),
                link);

        Long base = top.entries().containsKey("seed") ? integer(top, "seed", 1, 0, Long.MAX_VALUE / 2) : null;
        List<Long> explicitSeeds = seeds(top);
        int repetitions;
        if (top.entries().containsKey("repetitions")) {
            repetitions = (int) integer(top, "repetitions", 1, 1, 10_000);
        } else {
            repetitions = explicitSeeds != null ? Math.max(1, explicitSeeds.size()) : 1;
        }
        List<Long> seeds;
        if (explicitSeeds != null) {
            if (base != null) {
                problems.add(at(top, "seeds"), "give either seed (the first repetition's seed) or seeds (one per repetition), not both");
            }
            if (explicitSeeds.size() != repetitions) {
                problems.add(at(top, "seeds"), "seeds lists " + explicitSeeds.size() + " seed(s) but repetitions is " + repetitions
                        + "; give one seed per repetition");
            }
            seeds = explicitSeeds;
        } else {
            seeds = SeedList.from(base == null ? 1 : base, repetitions);
        }

        long timeout = 0;
        String t = string(top, "timeout", null);
        if (t != null) {
            try {
                timeout = Units.parseDuration("timeout", t);
                if (timeout <= 0) {
                    problems.add(valueAt(top, "timeout"), "timeout: must be longer than 0, e.g. 120s");
                }
            } catch (SpecException e) {
                problems.add(valueAt(top, "timeout"), e.getMessage());
            }
        }

        List<Implementation> implementations = implementations(top);
        List<SweepAxis> sweep = sweep(top);
        Collect collect = collect(top);
        boolean skip = false;
        String unavailable = string(top, "unavailable", null);
        if (unavailable != null) {
            switch (unavailable.toLowerCase(Locale.ROOT)) {
                case "skip" -> skip = true;
                case "fail" -> skip = false;
                default -> problems.add(valueAt(top, "unavailable"), "unavailable: '" + unavailable + "' is not valid"
                        + Suggestions.didYouMean(unavailable, List.of("fail", "skip")) + "; valid values: fail, skip");
            }
        }
        HostSetup hostSetup = HostSetup.AUTO;
        String hs = string(top, "host-setup", null);
        if (hs != null) {
            hostSetup = HostSetup.parse(hs);
            if (hostSetup == null) {
                problems.add(valueAt(top, "host-setup"), "host-setup: '" + hs + "' is not valid"
                        + Suggestions.didYouMean(hs, HostSetup.words()) + "; valid values: auto (real-time scheduling when root, "
                        + "the default), on, off");
                hostSetup = HostSetup.AUTO;
            }
        }
        int warmUp = WarmUp.DEFAULT_PACKETS;
        String wu = string(top, "emulator-warmup", null);
        if (wu != null) {
            try {
                warmUp = WarmUp.parse("emulator-warmup", wu);
            } catch (SpecException e) {
                problems.add(valueAt(top, "emulator-warmup"), e.getMessage());
            }
        }
        RunOrder order = RunOrder.GROUPED;
        String ord = string(top, "order", null);
        if (ord != null) {
            order = RunOrder.parse(ord);
            if (order == null) {
                problems.add(valueAt(top, "order"), RunOrder.invalid("order", ord));
                order = RunOrder.GROUPED;
            }
        }
        Path dir = Path.of(source).toAbsolutePath().getParent();
        List<PeerDeclaration> peers = new PeerDeclarationReader(problems, dir).read(top);
        problems.throwIfAny();
        return new Scenario(source, text, name, description, reproduces, modes, preset, down, up,
                new Located<>(new Transfer(size, streams), transferAt), sizeAt, streamsAt, repetitions, seeds, timeout,
                implementations, sweep, collect, skip, dc, peers,
                new Located<>(hostSetup, top.entries().containsKey("host-setup") ? valueAt(top, "host-setup") : top.at()),
                new Located<>(warmUp, wu != null ? valueAt(top, "emulator-warmup") : top.at()),
                new Located<>(order, ord != null ? valueAt(top, "order") : top.at()));
    }

    private String defaultName() {
        String f = Path.of(source).getFileName().toString();
        return f.replaceFirst("\\.(ya?ml)$", "");
    }

    // ---- sections -------------------------------------------------------------------------------------------

    private Map<String, Located<String>> direction(YamlNode.Mapping link, String key) {
        YamlNode.Entry e = link.entries().get(key);
        if (e == null || (e.value() instanceof YamlNode.Scalar s && s.isNull())) {
            return Map.of();
        }
        Map<String, Located<String>> out = new LinkedHashMap<>();
        String path = "link." + key;
        switch (e.value()) {
            case YamlNode.Mapping m -> {
                for (YamlNode.Entry f : m.entries().values()) {
                    String k = f.key().toLowerCase(Locale.ROOT);
                    if (!LINK_FIELD_KEYS.contains(k)) {
                        problems.add(f.keyAt(), "unknown key '" + f.key() + "' in " + path + Suggestions.didYouMean(k, LINK_FIELD_KEYS)
                                + "; valid keys: " + String.join(", ", LINK_FIELD_KEYS));
                        continue;
                    }
                    String v = scalar(f.value(), path + "." + k);
                    if (v != null) {
                        out.put(k, new Located<>(v, f.value().at()));
                    }
                }
            }
            case YamlNode.Scalar s -> {
                for (String token : s.text().strip().split("\\s+")) {
                    if (token.isEmpty()) {
                        continue;
                    }
                    int eq = token.indexOf('=');
                    if (eq <= 0 || eq == token.length() - 1) {
                        problems.add(s.at(), path + ": '" + token + "' is not a key=value field; write e.g. \"rate=40mbit delay=20ms\" "
                                + "or a mapping");
                        continue;
                    }
                    String k = token.substring(0, eq).toLowerCase(Locale.ROOT);
                    if (!LINK_FIELD_KEYS.contains(k)) {
                        problems.add(s.at(), "unknown key '" + k + "' in " + path + Suggestions.didYouMean(k, LINK_FIELD_KEYS)
                                + "; valid keys: " + String.join(", ", LINK_FIELD_KEYS));
                        continue;
                    }
                    out.put(k, new Located<>(token.substring(eq + 1), s.at()));
                }
            }
            case YamlNode.Sequence q -> problems.add(q.at(), path + " must be a mapping such as {rate: 40mbit, delay: 20ms} "
                    + "or a string such as \"rate=40mbit delay=20ms\", found a list");
        }
        return out;
    }

    private List<Implementation> implementations(YamlNode.Mapping top) {
        YamlNode.Entry e = top.entries().get("implementations");
        if (e == null) {
            problems.add(top.at(), "the scenario has no implementations; add e.g. 'implementations: [pacelab]'");
            return List.of();
        }
        if (!(e.value() instanceof YamlNode.Sequence seq) || seq.items().isEmpty()) {
            problems.add(e.value().at(), "implementations must be a non-empty list of peer names or of mappings "
                    + "{name, server, client, mode, options}, found " + e.value().kind());
            return List.of();
        }
        List<Implementation> out = new ArrayList<>();
        for (YamlNode item : seq.items()) {
            switch (item) {
                case YamlNode.Scalar s when !s.isNull() -> {
                    Located<String> n = new Located<>(s.text(), s.at());
                    out.add(new Implementation(n, n, n, List.of(), Map.of(), Map.of(), Map.of(), s.at()));
                }
                case YamlNode.Mapping m -> {
                    allowOnly(m, "implementations[].", Implementation.KEYS);
                    String server = string(m, "server", null);
                    String client = string(m, "client", null);
                    String nameText = string(m, "name", null);
                    if (server == null && client == null && nameText == null) {
                        problems.add(m.at(), "an implementation needs at least a server and a client (or a name that is a peer "
                                + "serving both roles)");
                        continue;
                    }
                    Located<String> nameL = nameText != null ? new Located<>(nameText, valueAt(m, "name")) : null;
                    Located<String> serverL = server != null ? new Located<>(server, valueAt(m, "server")) : nameL;
                    Located<String> clientL = client != null ? new Located<>(client, valueAt(m, "client")) : serverL;
                    if (serverL == null) {
                        serverL = clientL;
                    }
                    if (nameL == null) {
                        String n = serverL.value().equals(clientL.value()) ? serverL.value() : serverL.value() + "-" + clientL.value();
                        nameL = new Located<>(n, m.at());
                    }
                    out.add(new Implementation(nameL, serverL, clientL, modes(m, "mode"), options(m, "options"),
                            options(m, "server-options"), options(m, "client-options"), m.at()));
                }
                default -> problems.add(item.at(), "each implementation is a peer name (e.g. pacelab) or a mapping "
                        + "{name, server, client, mode, options}, found " + item.kind());
            }
        }
        return out;
    }

    private Map<String, Located<String>> options(YamlNode.Mapping m, String key) {
        YamlNode.Mapping o = mapping(m, key);
        if (o == null) {
            return Map.of();
        }
        Map<String, Located<String>> out = new LinkedHashMap<>();
        for (YamlNode.Entry f : o.entries().values()) {
            String v = scalar(f.value(), key + "." + f.key());
            if (v != null) {
                out.put(optionName(f.key()), new Located<>(v, f.value().at()));
            }
        }
        return out;
    }

    /** Option names are written without the command line's leading dashes. */
    static String optionName(String key) {
        String k = key.strip().toLowerCase(Locale.ROOT);
        while (k.startsWith("-")) {
            k = k.substring(1);
        }
        return k;
    }

    /**
     * The scenario with its {@code quick} mapping's keys in place of the top-level ones (checked in either case: keys
     * of a scenario other than name and quick).
     */
    private YamlNode.Mapping quickSubset(YamlNode.Mapping file) {
        YamlNode.Entry q = file.entries().get("quick");
        if (q == null) {
            return file;
        }
        if (!(q.value() instanceof YamlNode.Mapping quick)) {
            problems.add(q.value().at(), "quick must be a mapping of scenario keys that replace the file's for "
                    + "'pacelab run --quick' (e.g. {repetitions: 1, sweep: ...}), found " + q.value().kind());
            return file;
        }
        List<String> allowed = Scenario.KEYS.stream().filter(k -> !k.equals("name") && !k.equals("quick")).toList();
        allowOnly(quick, "quick.", allowed);
        Map<String, YamlNode.Entry> merged = new LinkedHashMap<>(file.entries());
        merged.remove("quick");
        merged.putAll(quick.entries());
        return new YamlNode.Mapping(file.at(), merged);
    }

    private List<SweepAxis> sweep(YamlNode.Mapping top) {
        YamlNode.Entry entry = top.entries().get("sweep");
        if (entry == null || entry.value() instanceof YamlNode.Scalar sc && sc.isNull()) {
            return List.of();
        }
        if (entry.value() instanceof YamlNode.Sequence grids) {
            // a list of mappings: the union of their grids
            List<SweepAxis> out = new ArrayList<>();
            for (int g = 0; g < grids.items().size(); g++) {
                YamlNode item = grids.items().get(g);
                if (item instanceof YamlNode.Mapping m) {
                    if (m.entries().isEmpty()) {
                        problems.add(m.at(), "sweep[" + g + "] has no axes; give at least one, e.g. {cc: [cubic, newreno]}");
                    }
                    out.addAll(axes(m, "sweep[" + g + "].", g));
                } else {
                    problems.add(item.at(), "sweep[" + g + "] must be a mapping of axes (the sweep is then the union of the "
                            + "grids of those mappings), found " + item.kind());
                }
            }
            return out;
        }
        YamlNode.Mapping s = mapping(top, "sweep");
        return s == null ? List.of() : axes(s, "sweep.", 0);
    }

    private List<SweepAxis> axes(YamlNode.Mapping s, String prefix, int grid) {
        List<SweepAxis> out = new ArrayList<>();
        for (YamlNode.Entry e : s.entries().values()) {
            List<Located<String>> values = new ArrayList<>();
            String path = prefix + e.key();
            switch (e.value()) {
                case YamlNode.Sequence q -> {
                    for (YamlNode v : q.items()) {
                        String text = scalar(v, path);
                        if (text != null) {
                            values.add(new Located<>(text, v.at()));
                        }
                    }
                }
                case YamlNode.Scalar v when !v.isNull() -> values.add(new Located<>(v.text(), v.at()));
                default -> problems.add(e.value().at(), path + " must be a list of values, e.g. [cubic, newreno], found "
                        + e.value().kind());
            }
            if (values.isEmpty()) {
                problems.add(e.value().at(), path + " has no values; give at least one");
                continue;
            }
            // each repetition once, at its place; a set keeps long lists linear (pairs made them cubic with Problems)
            Set<String> seen = new HashSet<>();
            for (Located<String> v : values) {
                if (!seen.add(v.value())) {
                    problems.add(v.at(), path + ": value '" + v.value() + "' appears twice");
                }
            }
            String key = e.key().strip();
            String normalized = key.contains(".") ? key.toLowerCase(Locale.ROOT) : optionName(key);
            out.add(new SweepAxis(new Located<>(normalized, e.keyAt()), values, grid));
        }
        return out;
    }

    private Collect collect(YamlNode.Mapping top) {
        YamlNode.Mapping c = mapping(top, "collect");
        if (c == null) {
            return Collect.DEFAULT;
        }
        allowOnly(c, "collect.", Collect.KEYS);
        Collect d = Collect.DEFAULT;
        Collect.Keep keep = d.keep();
        String k = string(c, "keep", null);
        if (k != null) {
            keep = switch (k.toLowerCase(Locale.ROOT)) {
                case "all" -> Collect.Keep.ALL;
                case "failed" -> Collect.Keep.FAILED;
                case "none" -> Collect.Keep.NONE;
                default -> {
                    problems.add(valueAt(c, "keep"), "collect.keep: '" + k + "' is not valid" + Suggestions.didYouMean(k, Collect.Keep.words())
                            + "; valid values: " + String.join(", ", Collect.Keep.words()));
                    yield d.keep();
                }
            };
        }
        return new Collect(onOff(c, "tap", d.tap()), onOff(c, "qlog", d.qlog()), onOff(c, "keylog", d.keylog()),
                onOff(c, "events", d.events()), onOff(c, "packets", d.packets()), keep);
    }

    private List<Long> seeds(YamlNode.Mapping top) {
        YamlNode.Entry e = top.entries().get("seeds");
        if (e == null) {
            return null;
        }
        if (!(e.value() instanceof YamlNode.Sequence q)) {
            problems.add(e.value().at(), "seeds must be a list of integers, one per repetition, found " + e.value().kind());
            return null;
        }
        List<Long> out = new ArrayList<>();
        for (YamlNode v : q.items()) {
            String text = scalar(v, "seeds");
            if (text == null) {
                continue;
            }
            try {
                long s = Long.parseLong(text.strip());
                if (s < 0) {
                    throw new NumberFormatException();
                }
                out.add(s);
            } catch (NumberFormatException ex) {
                problems.add(v.at(), "seeds: '" + text + "' is not a non-negative integer");
            }
        }
        return out;
    }

    private List<Located<Mode>> modes(YamlNode.Mapping m, String key) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null) {
            return List.of();
        }
        List<YamlNode> items = switch (e.value()) {
            case YamlNode.Sequence q -> q.items();
            default -> List.of(e.value());
        };
        List<Located<Mode>> out = new ArrayList<>();
        for (YamlNode item : items) {
            String text = scalar(item, key);
            if (text == null) {
                continue;
            }
            Mode mode = Mode.parse(text);
            if (mode == null) {
                problems.add(item.at(), key + ": '" + text + "' is not a mode" + Suggestions.didYouMean(text, Mode.words())
                        + "; valid modes: " + String.join(", ", Mode.words()));
            } else if (out.stream().anyMatch(l -> l.value() == mode)) {
                problems.add(item.at(), key + ": mode '" + text + "' is listed twice");
            } else {
                out.add(new Located<>(mode, item.at()));
            }
        }
        return out;
    }

    // ---- typed values ---------------------------------------------------------------------------------------

    private void allowOnly(YamlNode.Mapping m, String prefix, Collection<String> keys) {
        for (YamlNode.Entry e : m.entries().values()) {
            if (!keys.contains(e.key())) {
                String where = prefix.isEmpty() ? "the scenario" : prefix.endsWith("[].") ? "an implementation"
                        : prefix.substring(0, prefix.length() - 1);
                problems.add(e.keyAt(), "unknown key '" + e.key() + "' in " + where + Suggestions.didYouMean(e.key(), keys)
                        + "; valid keys: " + String.join(", ", keys));
            }
        }
    }

    private YamlNode.Mapping mapping(YamlNode.Mapping m, String key) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null || (e.value() instanceof YamlNode.Scalar s && s.isNull())) {
            return null;
        }
        if (e.value() instanceof YamlNode.Mapping sub) {
            return sub;
        }
        problems.add(e.value().at(), key + " must be a mapping of keys, found " + e.value().kind());
        return null;
    }

    private String scalar(YamlNode n, String path) {
        if (n instanceof YamlNode.Scalar s && !s.isNull()) {
            return s.text();
        }
        problems.add(n.at(), path + " must be a single value, found " + (n instanceof YamlNode.Scalar ? "nothing" : n.kind()));
        return null;
    }

    private String string(YamlNode.Mapping m, String key, String dflt) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null) {
            return dflt;
        }
        String v = scalar(e.value(), key);
        return v == null ? dflt : v.strip();
    }

    private long integer(YamlNode.Mapping m, String key, long dflt, long min, long max) {
        String v = string(m, key, null);
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v);
            if (n < min || n > max) {
                problems.add(valueAt(m, key), key + ": " + n + " is out of range; valid: " + min + " to " + max);
                return dflt;
            }
            return n;
        } catch (NumberFormatException e) {
            problems.add(valueAt(m, key), key + ": '" + v + "' is not a whole number; valid: " + min + " to " + max);
            return dflt;
        }
    }

    private boolean onOff(YamlNode.Mapping m, String key, boolean dflt) {
        String v = string(m, key, null);
        if (v == null) {
            return dflt;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> {
                problems.add(valueAt(m, key), key + ": '" + v + "' is not on or off");
                yield dflt;
            }
        };
    }

    private Long size(String path, String text, Location at) {
        try {
            long n = Units.parseSize(path, text);
            if (n <= 0) {
                problems.add(at, path + ": must be at least 1 byte, e.g. 10MiB");
                return null;
            }
            return n;
        } catch (SpecException e) {
            problems.add(at, e.getMessage());
            return null;
        }
    }

    private static Location at(YamlNode.Mapping m, String key) {
        YamlNode.Entry e = m.entries().get(key);
        return e == null ? m.at() : e.keyAt();
    }

    private static Location valueAt(YamlNode.Mapping m, String key) {
        YamlNode.Entry e = m.entries().get(key);
        return e == null ? m.at() : e.value().at();
    }
}
