package org.pacelab.cli;

import picocli.CommandLine;

/** Entry point of the {@code pacelab} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        TerminalText.installForConsole();
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (used by tests). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new PacelabCommand());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(new ClearErrorHandler());
        cl.setExecutionExceptionHandler(new FailureReporter());
        cl.setOut(TerminalText.writerOnto(System.out));
        cl.setErr(TerminalText.writerOnto(System.err));
        return cl.execute(args);
    }
}
