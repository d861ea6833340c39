package org.pacelab.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.peer.PacelabLauncher;

import picocli.CommandLine;

/** The command that starts this pacelab again as a child process (same JVM binary, class path and flags). */
final class Launchers {
    private Launchers() {}

    static PacelabLauncher current(CommandLine anyCommand) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // absolute class path entries: children start in their run directories (java -jar cli/target/pacelab.jar ...)
        String classPath = String.join(File.pathSeparator, Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(e -> e.isEmpty() ? e : Path.of(e).toAbsolutePath().toString()).toList());
        List<String> prefix = List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xss4m",
                "-cp", classPath, Main.class.getName());
        CommandLine root = anyCommand;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Set<String> commands = new LinkedHashSet<>();
        collect(root, "", commands);
        return new PacelabLauncher(prefix, commands);
    }

    private static void collect(CommandLine cl, String prefix, Set<String> out) {
        for (var e : cl.getSubcommands().entrySet()) {
            String name = prefix.isEmpty() ? e.getKey() : prefix + " " + e.getKey();
            out.add(name);
            collect(e.getValue(), name, out);
        }
    }
}
