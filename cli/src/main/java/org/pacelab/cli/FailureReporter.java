package org.pacelab.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

import org.pacelab.net.sys.Libc;
import org.pacelab.net.sys.SysException;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * What a command that threw prints: one sentence with the cause and an exit code from {@link ExitCode}. File and
 * socket errors are the user's or the host's (exit 2 or 3); anything else is a fault in pacelab (exit 70), still one
 * line unless PACELAB_STACKTRACE=1 asks for the stack trace.
 */
final class FailureReporter implements IExecutionExceptionHandler {
    /** A sentence and the exit code that goes with it. */
    record Failure(String sentence, int exitCode) {}

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        Failure f = describe(ex);
        String name = ClearErrorHandler.qualifiedName(cmd);
        cmd.getErr().println((name.isEmpty() ? "pacelab" : "pacelab " + name) + ": " + f.sentence());
        if (f.exitCode() == ExitCode.INTERNAL && "1".equals(System.getenv("PACELAB_STACKTRACE"))) {
            ex.printStackTrace(cmd.getErr());
        }
        cmd.getErr().flush();
        return f.exitCode();
    }

    static Failure describe(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof UserError u) {
                return new Failure(u.getMessage(), u.exitCode());
            }
            if (isAddressUnavailable(c)) {
                return new Failure(oneLine(c.getMessage()), ExitCode.UNAVAILABLE);
            }
            if (c instanceof FileSystemException fs) {
                return new Failure(fileProblem(fs), ExitCode.BAD_INPUT);
            }
        }
        Throwable root = t;
        while ((root instanceof UncheckedIOException || root instanceof java.util.concurrent.ExecutionException
                || root.getClass() == RuntimeException.class) && root.getCause() != null) {
            root = root.getCause();
        }
        if (root instanceof IOException io) {
            return new Failure(oneLine(io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage()),
                    ExitCode.FAILED);
        }
        String what = root.getClass().getName() + (root.getMessage() == null ? "" : ": " + oneLine(root.getMessage()));
        return new Failure("internal error (" + what + "); please report it — PACELAB_STACKTRACE=1 prints where it happened",
                ExitCode.INTERNAL);
    }

    /** Whether {@code t} (or a cause) says the local address cannot be had: in use, or not this host's. */
    static boolean isAddressUnavailable(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof BindException) {
                return true;
            }
            if (c instanceof SysException s && (s.errno() == Libc.EADDRINUSE || s.errno() == Libc.EADDRNOTAVAIL)) {
                return true;
            }
            String m = c.getMessage();
            if (m != null && (m.contains("Address already in use") || m.contains("Cannot assign requested address"))) {
                return true;
            }
        }
        return false;
    }

    /** The exit code for a failure to start on a socket: {@link ExitCode#UNAVAILABLE} or {@code otherwise}. */
    static int socketExitCode(Throwable t, int otherwise) {
        return isAddressUnavailable(t) ? ExitCode.UNAVAILABLE : otherwise;
    }

    /** One sentence for a file system error: the path, and what is wrong with it. */
    static String fileProblem(FileSystemException e) {
        String file = e.getFile();
        if (e.getOtherFile() != null) {
            file = file + " -> " + e.getOtherFile();
        }
        String reason;
        if (e instanceof NoSuchFileException) {
            Path parent = e.getFile() == null ? null : Path.of(e.getFile()).toAbsolutePath().getParent();
            reason = parent != null && !Files.isDirectory(parent)
                    ? "the directory " + parent + " does not exist"
                    : "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof NotDirectoryException) {
            reason = "not a directory";
        } else if (e instanceof FileAlreadyExistsException) {
            reason = "already exists" + (e.getFile() != null && !Files.isDirectory(Path.of(e.getFile()))
                    ? " and is not a directory" : "");
        } else if (e instanceof DirectoryNotEmptyException) {
            reason = "directory not empty";
        } else {
            reason = e.getReason() == null ? "file system error" : e.getReason().toLowerCase(Locale.ROOT);
        }
        return (file == null ? "" : file + ": ") + reason;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", "; ");
    }
}
