package org.pacelab.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.pacelab.lab.peer.PacelabLauncher;

import picocli.CommandLine;

/**
 * The command that starts this pacelab again as a child process (same JVM binary, class path and flags, and the
 * ahead-of-time caches of {@code server} and {@code client} when they are fresh: {@link AotCaches}).
 */
final class Launchers {
    private Launchers() {}

    /** Where a build lists its JVM options (resource {@code jvm-options} beside this class; the launcher reads it too). */
    static final String OPTIONS_RESOURCE = "org/pacelab/cli/jvm-options";
    /** The JVM options of the builds that did not list them yet (before issue 14's smaller C2 units). */
    static final List<String> UNLISTED_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xss4m");
    /** The JVM options of every pacelab JVM of this build (the {@code ./pacelab} launcher uses the same file). */
    static final List<String> JVM_OPTIONS = ownOptions();

    private static List<String> ownOptions() {
        try (InputStream in = Launchers.class.getClassLoader().getResourceAsStream(OPTIONS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + OPTIONS_RESOURCE + " is missing from this build");
            }
            return parseOptions(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What {@link #parseOptions} trims from both ends of a line: space, tab, vertical tab, form feed, CR. */
    private static final String BLANKS = " \t\u000B\f\r";

    /**
     * The options of a {@code jvm-options} file, by the one rule that {@code scripts/jvm-options.sh} (the
     * {@code ./pacelab} launcher's and {@code scripts/bench-slurm.sh}'s reader) follows too, checked by
     * {@code LaunchersTest}: a byte order mark at the start is ignored; lines end at LF, CRLF or a lone CR; each line is
     * trimmed of {@link #BLANKS} at both ends (only those: a locale's or Unicode's other spaces are no part of the rule,
     * so that bash and Java agree); then empty lines and lines starting with '#' are skipped; every other line is one
     * option, inner spaces included.
     */
    static List<String> parseOptions(String text) {
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        return body.lines().map(Launchers::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    private static String trim(String line) {
        int begin = 0;
        int end = line.length();
        while (begin < end && BLANKS.indexOf(line.charAt(begin)) >= 0) {
            begin++;
        }
        while (end > begin && BLANKS.indexOf(line.charAt(end - 1)) >= 0) {
            end--;
        }
        return line.substring(begin, end);
    }

    /**
     * The JVM options {@code jar}'s build runs with: its {@code jvm-options} resource, or {@link #UNLISTED_OPTIONS} for
     * a build from before that list (so that {@code bench loopback --jar} runs each build with its own options); this
     * build's when {@code jar} cannot be read as a jar (the JVM will say what is wrong with it).
     */
    static List<String> jvmOptionsOf(Path jar) {
        if (!Files.isRegularFile(jar)) {
            return JVM_OPTIONS;
        }
        try (ZipFile z = new ZipFile(jar.toFile())) {
            ZipEntry e = z.getEntry(OPTIONS_RESOURCE);
            if (e == null) {
                return UNLISTED_OPTIONS;
            }
            try (InputStream in = z.getInputStream(e)) {
                return parseOptions(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            return JVM_OPTIONS;
        }
    }

    static PacelabLauncher current() {
        return forClassPath(absolute(System.getProperty("java.class.path")));
    }

    /** The launcher of the pacelab on {@code classPath} (this one's, or another build's jar). */
    static PacelabLauncher forClassPath(String classPath) {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> prefix = new ArrayList<>();
        prefix.add(javaBin);
        Path jar = classPath.endsWith(".jar") && !classPath.contains(File.pathSeparator) ? Path.of(classPath) : null;
        prefix.addAll(jar == null ? JVM_OPTIONS : jvmOptionsOf(jar));
        prefix.addAll(List.of("-cp", classPath, Main.class.getName()));
        // the running command line may hold only the subcommand that was started (Main.commandLine)
        CommandLine root = Main.fullCommandLine();
        Set<String> commands = new LinkedHashSet<>();
        collect(root, "", commands);
        return new PacelabLauncher(prefix, commands, AotCaches.jvmOptions(jar));
    }

    /** The class path with every entry absolute: the children run in other directories. */
    static String absolute(String classPath) {
        List<String> out = new java.util.ArrayList<>();
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            out.add(entry.isEmpty() ? entry : Path.of(entry).toAbsolutePath().toString());
        }
        return String.join(java.io.File.pathSeparator, out);
    }

    private static void collect(CommandLine cl, String prefix, Set<String> out) {
        for (var e : cl.getSubcommands().entrySet()) {
            String name = prefix.isEmpty() ? e.getKey() : prefix + " " + e.getKey();
            out.add(name);
            collect(e.getValue(), name, out);
        }
    }
}
