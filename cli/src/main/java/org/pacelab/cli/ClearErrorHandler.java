package org.pacelab.cli;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/** Prints one clear sentence for a bad option instead of the whole usage text. */
final class ClearErrorHandler implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        cmd.getErr().println("pacelab " + cmd.getCommandName() + ": " + ex.getMessage());
        cmd.getErr().println("Run 'pacelab " + qualifiedName(cmd) + " --help' for the valid options.");
        return 2;
    }

    private static String qualifiedName(CommandLine cmd) {
        String q = cmd.getCommandSpec().qualifiedName();
        return q.startsWith("pacelab ") ? q.substring("pacelab ".length()) : "";
    }
}
