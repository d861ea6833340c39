package org.pacelab.cli;

import picocli.CommandLine;

/** Entry point of the {@code pacelab} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (used by tests). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new PacelabCommand());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(new ClearErrorHandler());
        return cl.execute(args);
    }
}
