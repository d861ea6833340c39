package org.pacelab.lab.scenario;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A peer a scenario (or a peers file it includes) declares by the command lines of its server and client, with
 * placeholders the runner fills in per run ({@code {port}}, {@code {docroot}}, {@code {urls}}, ...). See
 * {@link #SERVER_PLACEHOLDERS} and {@link #CLIENT_PLACEHOLDERS}.
 *
 * @param summary        one line for {@code pacelab peers}
 * @param protocols      ALPN tokens it speaks, in order of preference ({@code h3}, {@code hq-interop})
 * @param modes          where it runs (relay, netns)
 * @param cc             the congestion controllers it offers: the scenario's value of option {@code cc} and what
 *                       {@code {cc}} becomes on its command line; empty when it takes no {@code cc}
 * @param versionCommand a command whose first output line is its version, or empty
 * @param server         how its server starts, or null when it has none
 * @param client         how its client starts, or null when it has none
 */
public record PeerDeclaration(Located<String> name, String summary, List<String> protocols, List<Mode> modes,
                              Map<String, String> cc, List<String> versionCommand, Template server, Template client,
                              Location at) {
    public static final List<String> KEYS = List.of("summary", "protocols", "modes", "cc", "version-command", "server", "client");
    public static final List<String> TEMPLATE_KEYS = List.of("command", "environment", "ready", "success");
    public static final List<String> PROTOCOLS = List.of("h3", "hq-interop");
    /** What a server's command line can use. */
    public static final List<String> SERVER_PLACEHOLDERS = List.of("address", "port", "docroot", "cert", "key", "keylog",
            "qlogdir", "cc", "alpn");
    /**
     * What a client's command line can use; {@code urls} and {@code paths} become one argument per download,
     * {@code streams} is their number, {@code timeout} the run's limit in whole seconds.
     */
    public static final List<String> CLIENT_PLACEHOLDERS = List.of("address", "port", "url", "urls", "path", "paths", "streams",
            "outdir", "cert", "keylog", "cc", "alpn", "timeout");
    /** Placeholders that expand to several arguments and so must be a whole argument. */
    public static final Set<String> LISTS = Set.of("urls", "paths");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z]+)\\}");

    public PeerDeclaration {
        protocols = List.copyOf(protocols);
        modes = List.copyOf(modes);
        cc = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(cc));
        versionCommand = List.copyOf(versionCommand);
    }

    /** One argument of a command template: a word, or an optional group of words. */
    public sealed interface Arg permits Word, Group {}

    /** A word with placeholders. */
    public record Word(String text) implements Arg {}

    /** Words given only when every placeholder in them has a value in the run (e.g. {@code [--cc, "{cc}"]}). */
    public record Group(List<String> words) implements Arg {
        public Group {
            words = List.copyOf(words);
        }
    }

    /**
     * How one role starts.
     *
     * @param ready   {@code udp}: ready when its process has bound the port; {@code tcp}: when it listens on it
     * @param success {@code exit-code}: a client that exits 0 received everything; {@code files}: what it saved in
     *                {@code {outdir}} is counted
     */
    public record Template(List<Arg> command, Map<String, String> environment, String ready, String success, Location at) {
        public Template {
            command = List.copyOf(command);
            environment = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(environment));
        }

        /** Whether the command line or the environment uses the placeholder. */
        public boolean uses(String placeholder) {
            String p = "{" + placeholder + "}";
            for (Arg a : command) {
                List<String> words = a instanceof Group g ? g.words() : List.of(((Word) a).text());
                if (words.stream().anyMatch(w -> w.contains(p))) {
                    return true;
                }
            }
            return environment.values().stream().anyMatch(v -> v.contains(p));
        }

        /** The program: the first word. */
        public String program() {
            return command.getFirst() instanceof Word w ? w.text() : "";
        }
    }

    /** The placeholder names a text uses ({@code {{} and {@code }}} are literal braces). */
    public static List<String> placeholders(String text) {
        Matcher m = PLACEHOLDER.matcher(text.replace("{{", "").replace("}}", ""));
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /**
     * Fills a text in: each placeholder by its value; null when one has no value in this run (a {@link Group} or an
     * environment variable is then left out).
     */
    public static String fill(String text, Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if ((c == '{' || c == '}') && i + 1 < text.length() && text.charAt(i + 1) == c) {
                out.append(c);
                i += 2;
                continue;
            }
            Matcher m = PLACEHOLDER.matcher(text).region(i, text.length());
            if (c == '{' && m.lookingAt()) {
                String v = values.get(m.group(1));
                if (v == null) {
                    return null;
                }
                out.append(v);
                i = m.end();
                continue;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }
}
