package org.pacelab.cli;

/** A mistake of the user's or the host's, told in one sentence; the command ends with {@link #exitCode()}. */
final class UserError extends RuntimeException {
    private final int exitCode;

    UserError(String sentence, int exitCode) {
        super(sentence, null, false, false);
        this.exitCode = exitCode;
    }

    /** Bad input ({@link ExitCode#BAD_INPUT}). */
    UserError(String sentence) {
        this(sentence, ExitCode.BAD_INPUT);
    }

    int exitCode() {
        return exitCode;
    }
}
