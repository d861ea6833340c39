package org.pacelab.cli;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/** Prints one line for a bad option instead of the whole usage text; exit code {@link ExitCode#BAD_INPUT}. */
final class ClearErrorHandler implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String name = qualifiedName(cmd);
        String message = ex.getMessage() == null ? "invalid command line" : ex.getMessage().replaceAll("\\s*\\R\\s*", "; ");
        // picocli's "Invalid value for option '--cert': X" becomes "--cert: X" (the converters' sentences name the cause)
        message = message.replaceFirst("^Invalid value for option '([^']+)': ", "$1: ")
                .replaceFirst("^Invalid value for positional parameter at index \\d+ \\(([^)]+)\\): ", "$1: ");
        String command = name.isEmpty() ? "pacelab" : "pacelab " + name;
        // picocli's own complaints (unknown option, missing argument) name no valid choices: point at the help
        boolean picocliOwn = ex instanceof CommandLine.UnmatchedArgumentException
                || ex instanceof CommandLine.MissingParameterException || ex instanceof CommandLine.OverwrittenOptionException;
        cmd.getErr().println(command + ": " + message + (picocliOwn ? " (see '" + command + " --help')" : ""));
        cmd.getErr().flush();
        return ExitCode.BAD_INPUT;
    }

    /** The command's name after "pacelab", e.g. "server" or "dc report". */
    static String qualifiedName(CommandLine cmd) {
        String q = cmd.getCommandSpec().qualifiedName();
        return q.startsWith("pacelab ") ? q.substring("pacelab ".length()) : q.equals("pacelab") ? "" : q;
    }
}
