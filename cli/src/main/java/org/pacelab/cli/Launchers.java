package org.pacelab.cli;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.pacelab.lab.peer.PacelabLauncher;

import picocli.CommandLine;

/** The command that starts this pacelab again as a child process (same JVM binary, class path and flags). */
final class Launchers {
    private Launchers() {}

    static PacelabLauncher current() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> prefix = List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xss4m",
                "-cp", System.getProperty("java.class.path"), Main.class.getName());
        // the running command line may hold only the subcommand that was started (Main.commandLine)
        CommandLine root = Main.fullCommandLine();
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
