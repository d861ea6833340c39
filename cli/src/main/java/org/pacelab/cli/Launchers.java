package org.pacelab.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.peer.PacelabLauncher;

import picocli.CommandLine;

/**
 * The command that starts this pacelab again as a child process (same JVM binary, class path and flags, and the
 * ahead-of-time caches of {@code server} and {@code client} when they are fresh: {@link AotCaches}).
 */
final class Launchers {
    private Launchers() {}

    /** The JVM options of every pacelab JVM (the {@code ./pacelab} launcher uses the same). */
    static final List<String> JVM_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xss4m");

    static PacelabLauncher current() {
        return forClassPath(absolute(System.getProperty("java.class.path")));
    }

    /** The launcher of the pacelab on {@code classPath} (this one's, or another build's jar). */
    static PacelabLauncher forClassPath(String classPath) {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> prefix = new ArrayList<>();
        prefix.add(javaBin);
        prefix.addAll(JVM_OPTIONS);
        prefix.addAll(List.of("-cp", classPath, Main.class.getName()));
        // the running command line may hold only the subcommand that was started (Main.commandLine)
        CommandLine root = Main.fullCommandLine();
        Set<String> commands = new LinkedHashSet<>();
        collect(root, "", commands);
        Path jar = classPath.endsWith(".jar") && !classPath.contains(File.pathSeparator) ? Path.of(classPath) : null;
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
