package org.pacelab.lab.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How to start {@code pacelab SUBCOMMAND ...} as a separate process: the JVM command of the running pacelab
 * ({@code java ... -cp CLASSPATH org.pacelab.cli.Main}) and the subcommands this build has (e.g. "server",
 * "peer quiche-server"), so that peers shipped as pacelab subcommands can tell whether they exist.
 */
public record PacelabLauncher(List<String> prefix, Set<String> commands) {
    public PacelabLauncher {
        prefix = List.copyOf(prefix);
        commands = Set.copyOf(commands);
    }

    /** The full command line for {@code pacelab args...}. */
    public List<String> command(List<String> args) {
        List<String> c = new ArrayList<>(prefix);
        c.addAll(args);
        return c;
    }

    /** Whether this build has the (space-separated) subcommand, e.g. {@code "peer kwik-server"}. */
    public boolean has(String subcommand) {
        return commands.contains(subcommand);
    }
}
