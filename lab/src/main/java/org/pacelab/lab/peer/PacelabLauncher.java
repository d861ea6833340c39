package org.pacelab.lab.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How to start {@code pacelab SUBCOMMAND ...} as a separate process: the JVM command of the running pacelab
 * ({@code java ... -cp CLASSPATH org.pacelab.cli.Main}), JVM options for particular subcommands (the ahead-of-time
 * cache trained for {@code server} and {@code client}), and the subcommands this build has (e.g. "server",
 * "peer quiche-server"), so that peers shipped as pacelab subcommands can tell whether they exist.
 *
 * @param prefix        the JVM command up to and including the main class; its first element is the java binary
 * @param commands      the subcommands of this build
 * @param jvmOptionsFor JVM options added (after the java binary) when the first argument names this subcommand
 */
public record PacelabLauncher(List<String> prefix, Set<String> commands, Map<String, List<String>> jvmOptionsFor) {
    public PacelabLauncher {
        prefix = List.copyOf(prefix);
        commands = Set.copyOf(commands);
        jvmOptionsFor = Map.copyOf(jvmOptionsFor);
    }

    public PacelabLauncher(List<String> prefix, Set<String> commands) {
        this(prefix, commands, Map.of());
    }

    /** The full command line for {@code pacelab args...}. */
    public List<String> command(List<String> args) {
        List<String> c = new ArrayList<>(prefix);
        if (!args.isEmpty() && !c.isEmpty()) {
            c.addAll(1, jvmOptionsFor.getOrDefault(args.getFirst(), List.of()));
        }
        c.addAll(args);
        return c;
    }

    /** This launcher with other per-subcommand JVM options. */
    public PacelabLauncher withJvmOptionsFor(Map<String, List<String>> options) {
        return new PacelabLauncher(prefix, commands, options);
    }

    /** Whether this build has the (space-separated) subcommand, e.g. {@code "peer kwik-server"}. */
    public boolean has(String subcommand) {
        return commands.contains(subcommand);
    }

    /** A peer that runs as this (space-separated) subcommand is usable when this build has it. */
    public Availability availability(String subcommand) {
        return has(subcommand) ? Availability.USABLE : Availability.missing("this build has no 'pacelab " + subcommand + "'");
    }
}
