package org.pacelab.cli;

/**
 * The exit codes of every {@code pacelab} command (README "Exit codes"). A command that fails prints one sentence on
 * standard error naming the option or file, the cause and what would be valid — never a Java stack trace.
 */
final class ExitCode {
    private ExitCode() {}

    /** The command did what was asked. */
    static final int OK = 0;
    /** The work ran and failed: a transfer did not complete, a run or a check failed, the server stopped on an error. */
    static final int FAILED = 1;
    /**
     * Bad input: an option, value, spec or scenario; a file named on the command line that is missing, unreadable, not
     * of the expected kind or damaged; a path that cannot be written; something this host cannot do (a send strategy
     * the kernel lacks, root needed).
     */
    static final int BAD_INPUT = 2;
    /** The network refused: the port is in use, or the address is not one of this host's. */
    static final int UNAVAILABLE = 3;
    /** A fault in pacelab itself (please report it); PACELAB_STACKTRACE=1 prints where it happened. */
    static final int INTERNAL = 70;
    /** {@code pacelab endpoint}: the QUIC Interop Runner test case is not supported. */
    static final int UNSUPPORTED_TEST_CASE = 127;
}
