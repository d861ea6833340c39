package org.pacelab.cli;

import org.pacelab.io.runtime.Preparation;
import org.pacelab.sim.Simulation;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** Entry point of the {@code pacelab} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("sim")) {
            // the run's one-time set-up (certificate, host model, libcrypto) beside picocli's start and the options
            Simulation.prepareInBackground();
        } else if (args.length > 0 && (args[0].equals("client") || args[0].equals("server"))) {
            // the first connection's one-time set-up (libc's and libcrypto's bindings, the JDK's crypto, the TLS
            // library) beside picocli's start and the options
            Preparation.endpointInBackground();
        }
        TerminalText.installForConsole();
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (used by tests). */
    public static int run(String... args) {
        CommandLine cl = commandLine(args);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(new ClearErrorHandler());
        cl.setExecutionExceptionHandler(new FailureReporter());
        cl.setOut(TerminalText.writerOnto(System.out));
        cl.setErr(TerminalText.writerOnto(System.err));
        return cl.execute(args);
    }

    /**
     * The command tree for these arguments. When they start with a subcommand's name (other than {@code help}), the
     * root gets only that subcommand: picocli builds the model of every command in the tree by reflection, which cost
     * about 0.3 s of CPU per start with all of them (plus the JIT's work on it), and {@code pacelab server} and
     * {@code pacelab client} are started for every run of a campaign or benchmark. Anything else (help, usage,
     * {@code --version}, a mistyped name that picocli then suggests a correction for) gets the whole tree.
     */
    static CommandLine commandLine(String... args) {
        Class<?> chosen = args.length == 0 || args[0].equals("help") ? null : subcommand(args[0]);
        if (chosen == null) {
            return fullCommandLine();
        }
        Command top = PacelabCommand.class.getAnnotation(Command.class);
        CommandLine root = new CommandLine(CommandSpec.wrapWithoutInspection(new PacelabCommand()).name(top.name()));
        root.addSubcommand(new CommandLine(chosen));
        return root;
    }

    /** The whole command tree, every subcommand built. */
    static CommandLine fullCommandLine() {
        return new CommandLine(new PacelabCommand());
    }

    /** The subcommand class of {@code pacelab NAME}, or null. */
    private static Class<?> subcommand(String name) {
        for (Class<?> c : PacelabCommand.class.getAnnotation(Command.class).subcommands()) {
            Command cmd = c.getAnnotation(Command.class);
            if (cmd != null && cmd.name().equals(name)) {
                return c;
            }
        }
        return null;
    }
}
