package org.pacelab.lab.scenario;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the peers a scenario declares by command line, from its {@code peers} mapping and from the peers files its
 * {@code include} names (paths relative to the scenario's directory; a peers file holds a {@code peers} mapping and
 * nothing else):
 * <pre>
 * include: [peers/ngtcp2-source.yaml]
 * peers:
 *   my-ngtcp2:
 *     summary: ngtcp2's examples built from source
 *     protocols: [h3]                   # h3 (default), hq-interop; in order of preference
 *     modes: [relay, netns]             # the default
 *     cc: {cubic: cubic, newreno: reno} # or a list [cubic, reno]: the values option cc takes, and what {cc} becomes
 *     version-command: [qtlsclient, --version]
 *     server:
 *       command: [qtlsserver, -q, -d, "{docroot}", ["--cc={cc}"], ["--qlog-dir={qlogdir}"], "{address}", "{port}", "{key}", "{cert}"]
 *       environment: {SSLKEYLOGFILE: "{keylog}"}
 *       ready: udp                      # udp (default): bound its port; tcp: listens on it
 *     client:
 *       command: "qtlsclient -q --exit-on-all-streams-close --download {outdir} [--cc={cc}] {address} {port} {urls}"
 *       environment: {SSLKEYLOGFILE: "{keylog}"}
 *       success: files                  # files (default with {outdir}): count what it saved; exit-code: trust status 0
 * </pre>
 * A command is a list (a nested list is an optional group) or a string split at spaces ("quotes" keep spaces,
 * {@code [ ... ]} marks an optional group). A group, or an environment variable, whose placeholder has no value in a
 * run (no key log collected, no {@code cc} given) is left out.
 */
final class PeerDeclarationReader {
    private final Problems problems;
    private final Path base;

    /** @param base the scenario's directory, which {@code include} paths are relative to; null for the working directory */
    PeerDeclarationReader(Problems problems, Path base) {
        this.problems = problems;
        this.base = base;
    }

    /** The declarations of the scenario's {@code include} files, then of its own {@code peers}. */
    List<PeerDeclaration> read(YamlNode.Mapping top) {
        Map<String, PeerDeclaration> out = new LinkedHashMap<>();
        YamlNode.Entry include = top.entries().get("include");
        if (include != null) {
            List<YamlNode> files = include.value() instanceof YamlNode.Sequence s ? s.items() : List.of(include.value());
            for (YamlNode f : files) {
                if (!(f instanceof YamlNode.Scalar s) || s.isNull()) {
                    problems.add(f.at(), "include: each entry is the path of a peers file, found " + f.kind());
                    continue;
                }
                readFile(s, out);
            }
        }
        YamlNode.Entry peers = top.entries().get("peers");
        if (peers != null) {
            declarations(peers, out);
        }
        return List.copyOf(out.values());
    }

    /** The largest peers file an include reads (a declaration is a few hundred bytes; /dev/zero never ends). */
    private static final long MAX_PEERS_FILE_BYTES = 1 << 20;

    private void readFile(YamlNode.Scalar ref, Map<String, PeerDeclaration> out) {
        String hint = "give the path of a peers file relative to the scenario's directory";
        Path file;
        try {
            file = base == null ? Path.of(ref.text()) : base.resolve(ref.text());
        } catch (InvalidPathException e) {
            problems.add(ref.at(), "include: '" + ref.text() + "' is not a valid path (" + e.getReason() + "); " + hint);
            return;
        }
        String text;
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                problems.add(ref.at(), "include: the peers file " + file + " is not a regular file; " + hint);
                return;
            }
            if (attributes.size() > MAX_PEERS_FILE_BYTES) {
                problems.add(ref.at(), "include: the peers file " + file + " has " + attributes.size() + " bytes, more than the "
                        + MAX_PEERS_FILE_BYTES + " (1 MiB) a peers file may hold; split its peers over several files");
                return;
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            problems.add(ref.at(), "include: cannot read the peers file " + file + " (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
            return;
        }
        YamlNode root;
        try {
            root = YamlTree.parse(file.toString(), text);
        } catch (ScenarioException e) {
            e.problems().forEach(p -> problems.add(ref.at(), "include: " + p));
            return;
        }
        if (!(root instanceof YamlNode.Mapping m)) {
            problems.add(root.at(), "a peers file is a mapping with one key, peers, found " + root.kind());
            return;
        }
        for (YamlNode.Entry e : m.entries().values()) {
            if (!e.key().equals("peers")) {
                problems.add(e.keyAt(), "unknown key '" + e.key() + "' in a peers file; it holds only peers");
            }
        }
        YamlNode.Entry peers = m.entries().get("peers");
        if (peers == null) {
            problems.add(m.at(), "the peers file declares no peers; add a peers mapping");
            return;
        }
        declarations(peers, out);
    }

    private void declarations(YamlNode.Entry peers, Map<String, PeerDeclaration> out) {
        if (!(peers.value() instanceof YamlNode.Mapping m)) {
            problems.add(peers.value().at(), "peers must be a mapping of peer names to their server and client commands, found "
                    + peers.value().kind());
            return;
        }
        for (YamlNode.Entry e : m.entries().values()) {
            String name = e.key();
            if (!name.matches("[a-z0-9][a-z0-9._-]*")) {
                problems.add(e.keyAt(), "peers: '" + name + "' is not a peer name; use lower-case letters, digits, '.', '_' or '-'");
                continue;
            }
            if (out.containsKey(name)) {
                problems.add(e.keyAt(), "peers: " + name + " is declared twice (also at " + out.get(name).at() + ")");
                continue;
            }
            PeerDeclaration d = declaration(new Located<>(name, e.keyAt()), e.value());
            if (d != null) {
                out.put(name, d);
            }
        }
    }

    private PeerDeclaration declaration(Located<String> name, YamlNode node) {
        String p = "peers." + name.value();
        if (!(node instanceof YamlNode.Mapping m)) {
            problems.add(node.at(), p + " must be a mapping with server and/or client, found " + node.kind());
            return null;
        }
        allowOnly(m, p, PeerDeclaration.KEYS);
        String summary = scalar(m, "summary", p);
        List<String> protocols = new ArrayList<>();
        for (Located<String> v : list(m, "protocols", p)) {
            String t = v.value().strip().toLowerCase(Locale.ROOT);
            if (!PeerDeclaration.PROTOCOLS.contains(t)) {
                problems.add(v.at(), p + ".protocols: '" + v.value() + "' is not valid" + Suggestions.didYouMean(t, PeerDeclaration.PROTOCOLS)
                        + "; valid values: " + String.join(", ", PeerDeclaration.PROTOCOLS));
            } else if (!protocols.contains(t)) {
                protocols.add(t);
            }
        }
        if (protocols.isEmpty()) {
            protocols.add("h3");
        }
        List<Mode> modes = new ArrayList<>();
        for (Located<String> v : list(m, "modes", p)) {
            Mode mode = Mode.parse(v.value());
            if (mode == null || mode == Mode.SIM) {
                problems.add(v.at(), p + ".modes: '" + v.value() + "' is not valid; a peer declared by command line runs in relay "
                        + "or netns mode");
            } else if (!modes.contains(mode)) {
                modes.add(mode);
            }
        }
        if (modes.isEmpty()) {
            modes.addAll(List.of(Mode.RELAY, Mode.NETNS));
        }
        Map<String, String> cc = cc(m, p);
        List<String> version = new ArrayList<>();
        YamlNode.Entry ve = m.entries().get("version-command");
        if (ve != null) {
            for (PeerDeclaration.Arg a : command(ve.value(), p + ".version-command")) {
                if (a instanceof PeerDeclaration.Word w && PeerDeclaration.placeholders(w.text()).isEmpty()) {
                    version.add(w.text());
                } else {
                    problems.add(ve.value().at(), p + ".version-command: a plain command without placeholders or groups");
                }
            }
        }
        PeerDeclaration.Template server = template(m.entries().get("server"), p + ".server", PeerDeclaration.SERVER_PLACEHOLDERS, false);
        PeerDeclaration.Template client = template(m.entries().get("client"), p + ".client", PeerDeclaration.CLIENT_PLACEHOLDERS, true);
        if (server == null && client == null && !m.entries().containsKey("server") && !m.entries().containsKey("client")) {
            problems.add(m.at(), p + " has neither a server nor a client command; give at least one");
            return null;
        }
        boolean usesCc = server != null && server.uses("cc") || client != null && client.uses("cc");
        if (usesCc && cc.isEmpty()) {
            problems.add(m.at(), p + ": a command uses {cc} but the peer declares no cc values; add e.g. cc: [cubic, reno]");
        } else if (!usesCc && !cc.isEmpty()) {
            problems.add(m.entries().get("cc").keyAt(), p + ".cc: no command uses {cc}, so the controller could not be chosen; "
                    + "put {cc} where the stack takes it, e.g. [\"--cc={cc}\"]");
        }
        return new PeerDeclaration(name, summary == null ? "declared by command line" : summary, protocols, modes, cc, version,
                server, client, m.at());
    }

    private Map<String, String> cc(YamlNode.Mapping m, String p) {
        Map<String, String> cc = new LinkedHashMap<>();
        YamlNode.Entry e = m.entries().get("cc");
        if (e == null) {
            return cc;
        }
        switch (e.value()) {
            case YamlNode.Sequence s -> {
                for (YamlNode item : s.items()) {
                    String v = text(item, p + ".cc");
                    if (v != null) {
                        cc.put(v.strip().toLowerCase(Locale.ROOT), v.strip());
                    }
                }
            }
            case YamlNode.Mapping map -> {
                for (YamlNode.Entry f : map.entries().values()) {
                    String v = text(f.value(), p + ".cc." + f.key());
                    if (v != null) {
                        cc.put(f.key().strip().toLowerCase(Locale.ROOT), v.strip());
                    }
                }
            }
            case YamlNode.Scalar s -> problems.add(s.at(), p + ".cc must be a list of the stack's controllers, e.g. [cubic, reno], "
                    + "or a mapping from the scenario's names to the stack's, e.g. {newreno: reno}");
        }
        return cc;
    }

    private PeerDeclaration.Template template(YamlNode.Entry e, String p, List<String> allowed, boolean client) {
        if (e == null) {
            return null;
        }
        if (!(e.value() instanceof YamlNode.Mapping m)) {
            problems.add(e.value().at(), p + " must be a mapping with command (and environment, ready, success), found " + e.value().kind());
            return null;
        }
        allowOnly(m, p, PeerDeclaration.TEMPLATE_KEYS);
        YamlNode.Entry ce = m.entries().get("command");
        if (ce == null) {
            problems.add(m.at(), p + " has no command");
            return null;
        }
        List<PeerDeclaration.Arg> command = command(ce.value(), p + ".command");
        if (command.isEmpty()) {
            problems.add(ce.value().at(), p + ".command is empty");
            return null;
        }
        if (!(command.getFirst() instanceof PeerDeclaration.Word w) || !PeerDeclaration.placeholders(w.text()).isEmpty()) {
            problems.add(ce.value().at(), p + ".command must start with the program (a name or a path, without placeholders)");
        }
        for (PeerDeclaration.Arg a : command) {
            List<String> words = a instanceof PeerDeclaration.Group g ? g.words() : List.of(((PeerDeclaration.Word) a).text());
            for (String w : words) {
                checkPlaceholders(w, ce.value().at(), p + ".command", allowed, a instanceof PeerDeclaration.Word);
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        YamlNode.Entry ee = m.entries().get("environment");
        if (ee != null) {
            if (ee.value() instanceof YamlNode.Mapping em) {
                for (YamlNode.Entry v : em.entries().values()) {
                    String t = text(v.value(), p + ".environment." + v.key());
                    if (t != null) {
                        checkPlaceholders(t, v.value().at(), p + ".environment." + v.key(), allowed, false);
                        env.put(v.key(), t);
                    }
                }
            } else {
                problems.add(ee.value().at(), p + ".environment must be a mapping of variables, e.g. {SSLKEYLOGFILE: \"{keylog}\"}");
            }
        }
        String ready = word(m, "ready", p, client ? List.of() : List.of("udp", "tcp"), "udp");
        PeerDeclaration.Template t = new PeerDeclaration.Template(command, env, ready, "exit-code", m.at());
        String success = word(m, "success", p, client ? List.of("exit-code", "files") : List.of(), t.uses("outdir") ? "files" : "exit-code");
        if (client && success.equals("files") && !t.uses("outdir")) {
            problems.add(m.at(), p + ": success: files counts what the client saved into {outdir}, but its command does not use {outdir}");
        }
        return new PeerDeclaration.Template(command, env, ready, success, m.at());
    }

    private void checkPlaceholders(String text, Location at, String p, List<String> allowed, boolean wholeWordAllowed) {
        for (String ph : PeerDeclaration.placeholders(text)) {
            if (!allowed.contains(ph)) {
                problems.add(at, p + ": unknown placeholder {" + ph + "}" + Suggestions.didYouMean(ph, allowed) + "; valid: "
                        + String.join(", ", allowed.stream().map(x -> "{" + x + "}").toList()));
            } else if (PeerDeclaration.LISTS.contains(ph) && !(wholeWordAllowed && text.equals("{" + ph + "}"))) {
                problems.add(at, p + ": {" + ph + "} stands for one argument per download, so it must be a whole argument "
                        + "outside optional groups");
            }
        }
    }

    /** A command: a list (nested lists are optional groups) or a string split at spaces with quotes and [ ] groups. */
    private List<PeerDeclaration.Arg> command(YamlNode node, String p) {
        List<PeerDeclaration.Arg> out = new ArrayList<>();
        switch (node) {
            case YamlNode.Sequence s -> {
                for (YamlNode item : s.items()) {
                    if (item instanceof YamlNode.Sequence g) {
                        List<String> words = new ArrayList<>();
                        for (YamlNode w : g.items()) {
                            String t = text(w, p);
                            if (t != null) {
                                words.add(t);
                            }
                        }
                        if (words.isEmpty()) {
                            problems.add(g.at(), p + ": an optional group is empty");
                        } else {
                            out.add(new PeerDeclaration.Group(words));
                        }
                    } else {
                        String t = text(item, p);
                        if (t != null) {
                            out.add(new PeerDeclaration.Word(t));
                        }
                    }
                }
            }
            case YamlNode.Scalar s when !s.isNull() -> {
                List<String> group = null;
                for (String token : split(s.text(), s.at(), p)) {
                    boolean open = token.startsWith("[") && group == null;
                    if (open) {
                        group = new ArrayList<>();
                        token = token.substring(1);
                    }
                    boolean close = group != null && token.endsWith("]");
                    if (close) {
                        token = token.substring(0, token.length() - 1);
                    }
                    if (group != null) {
                        if (!token.isEmpty()) {
                            group.add(token);
                        }
                        if (close) {
                            if (group.isEmpty()) {
                                problems.add(s.at(), p + ": an optional group [ ] is empty");
                            } else {
                                out.add(new PeerDeclaration.Group(group));
                            }
                            group = null;
                        }
                    } else if (!token.isEmpty()) {
                        out.add(new PeerDeclaration.Word(token));
                    }
                }
                if (group != null) {
                    problems.add(s.at(), p + ": an optional group [ is not closed with ]");
                }
            }
            default -> problems.add(node.at(), p + " must be a list of arguments or a command line, found " + node.kind());
        }
        return out;
    }

    /** The words of a command template; an unclosed quote is a problem at {@code at}. */
    private List<String> split(String text, Location at, String p) {
        CommandWords w = CommandWords.split(text);
        if (w.unclosedQuote() != 0) {
            problems.add(at, p + ": a quote (" + w.unclosedQuote() + ") is not closed");
        }
        return w.words();
    }

    private void allowOnly(YamlNode.Mapping m, String p, List<String> keys) {
        for (YamlNode.Entry e : m.entries().values()) {
            if (!keys.contains(e.key())) {
                problems.add(e.keyAt(), "unknown key '" + e.key() + "' in " + p + Suggestions.didYouMean(e.key(), keys)
                        + "; valid keys: " + String.join(", ", keys));
            }
        }
    }

    private String text(YamlNode n, String p) {
        if (n instanceof YamlNode.Scalar s && !s.isNull()) {
            return s.text();
        }
        problems.add(n.at(), p + " must be a single value, found " + (n instanceof YamlNode.Scalar ? "nothing" : n.kind()));
        return null;
    }

    private String scalar(YamlNode.Mapping m, String key, String p) {
        YamlNode.Entry e = m.entries().get(key);
        return e == null ? null : text(e.value(), p + "." + key);
    }

    private List<Located<String>> list(YamlNode.Mapping m, String key, String p) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null) {
            return List.of();
        }
        List<YamlNode> items = e.value() instanceof YamlNode.Sequence s ? s.items() : List.of(e.value());
        List<Located<String>> out = new ArrayList<>();
        for (YamlNode i : items) {
            String t = text(i, p + "." + key);
            if (t != null) {
                out.add(new Located<>(t, i.at()));
            }
        }
        return out;
    }

    private String word(YamlNode.Mapping m, String key, String p, List<String> valid, String dflt) {
        YamlNode.Entry e = m.entries().get(key);
        if (e == null) {
            return dflt;
        }
        String v = text(e.value(), p + "." + key);
        if (v == null) {
            return dflt;
        }
        String t = v.strip().toLowerCase(Locale.ROOT);
        if (valid.isEmpty()) {
            problems.add(e.keyAt(), p + "." + key + " does not apply here"
                    + (key.equals("ready") ? " (a client is not waited for)" : " (only a client succeeds or fails)"));
            return dflt;
        }
        if (!valid.contains(t)) {
            problems.add(e.value().at(), p + "." + key + ": '" + v + "' is not valid" + Suggestions.didYouMean(t, valid)
                    + "; valid values: " + String.join(", ", valid));
            return dflt;
        }
        return t;
    }
}
