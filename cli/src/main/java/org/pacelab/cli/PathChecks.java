package org.pacelab.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Checks of the paths named on the command line, before any work starts (so a long run does not end by failing to
 * write its result). Each is a picocli converter: a bad path is one sentence and exit code 2.
 */
final class PathChecks {
    private PathChecks() {}

    /** Why {@code p} cannot be read as a file, or null when it can. */
    static String unreadableFile(Path p) {
        if (!Files.exists(p)) {
            return missing(p, "file");
        }
        if (Files.isDirectory(p)) {
            return p + " is a directory, not a file";
        }
        if (!Files.isReadable(p)) {
            return p + ": permission denied (cannot read it)";
        }
        return null;
    }

    /** Why {@code p} cannot be read as a directory, or null when it can. */
    static String unreadableDirectory(Path p) {
        if (!Files.exists(p)) {
            return missing(p, "directory");
        }
        if (!Files.isDirectory(p)) {
            return p + " is not a directory";
        }
        if (!Files.isReadable(p) || !Files.isExecutable(p)) {
            return p + ": permission denied (cannot list it)";
        }
        return null;
    }

    /** Why a file cannot be written at {@code p} (created or replaced), or null when it can. */
    static String unwritableFile(Path p) {
        if (Files.isDirectory(p)) {
            return p + " is a directory; give a file name";
        }
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null) {
            if (!Files.exists(parent)) {
                return "the directory " + parent + " does not exist (create it first)";
            }
            if (!Files.isDirectory(parent)) {
                return parent + " is not a directory";
            }
            if (!Files.isWritable(parent)) {
                return "the directory " + parent + " is not writable";
            }
        }
        if (Files.exists(p) && !Files.isWritable(p)) {
            return p + " is not writable";
        }
        return null;
    }

    /** Why a directory cannot be used or created at {@code p} for writing, or null when it can. */
    static String unwritableDirectory(Path p) {
        Path a = p.toAbsolutePath();
        if (Files.exists(a)) {
            if (!Files.isDirectory(a)) {
                return p + " is a file, not a directory";
            }
            return Files.isWritable(a) ? null : "the directory " + p + " is not writable";
        }
        Path ancestor = a.getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor == null) {
            return null;
        }
        if (!Files.isDirectory(ancestor)) {
            return "cannot create " + p + ": " + ancestor + " is a file, not a directory";
        }
        if (!Files.isWritable(ancestor)) {
            return "cannot create " + p + ": the directory " + ancestor + " is not writable";
        }
        return null;
    }

    /**
     * The file the environment variable {@code name} names for writing (SSLKEYLOGFILE), or null when it is unset or
     * blank: the rule of {@link OutputFile}, for a path an option would otherwise give.
     *
     * @throws IllegalArgumentException one sentence naming the variable and why the file cannot be written
     */
    static Path outputFileFromEnvironment(String name) {
        return outputFile(name, System.getenv(name));
    }

    /** As {@link #outputFileFromEnvironment}, for the value {@code value} of the variable {@code name} (null: unset). */
    static Path outputFile(String name, String value) {
        return fromEnvironment(name, value, PathChecks::unwritableFile, " cannot be written: ");
    }

    /**
     * The directory the environment variable {@code name} names for writing into (QLOGDIR; created when missing), or
     * null when it is unset or blank: the rule of {@link OutputDirectory}.
     *
     * @throws IllegalArgumentException one sentence naming the variable and why the directory cannot be used
     */
    static Path outputDirectoryFromEnvironment(String name) {
        return outputDirectory(name, System.getenv(name));
    }

    /** As {@link #outputDirectoryFromEnvironment}, for the value {@code value} of the variable {@code name} (null: unset). */
    static Path outputDirectory(String name, String value) {
        return fromEnvironment(name, value, PathChecks::unwritableDirectory, " cannot be used: ");
    }

    private static Path fromEnvironment(String name, String v, java.util.function.Function<Path, String> check, String cannot) {
        if (v == null || v.isBlank()) {
            return null;
        }
        Path p;
        try {
            p = Path.of(v);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException(name + " '" + v + "' is not a valid path (" + e.getReason() + ")");
        }
        String problem = check.apply(p);
        if (problem != null) {
            throw new IllegalArgumentException(name + cannot + problem);
        }
        return p;
    }

    private static String missing(Path p, String what) {
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            return p + ": no such " + what + " (the directory " + parent + " does not exist)";
        }
        return p + ": no such " + what;
    }

    private static Path convert(String value, java.util.function.Function<Path, String> check) {
        Path p;
        try {
            p = Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new TypeConversionException("'" + value + "' is not a valid path (" + e.getReason() + ")");
        }
        String problem = check.apply(p);
        if (problem != null) {
            throw new TypeConversionException(problem);
        }
        return p;
    }

    /** A file to read. */
    static final class InputFile implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return PathChecks.convert(value, PathChecks::unreadableFile);
        }
    }

    /** A directory to read. */
    static final class InputDirectory implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return PathChecks.convert(value, PathChecks::unreadableDirectory);
        }
    }

    /** A file or a directory to read. */
    static final class InputPath implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return PathChecks.convert(value, p -> !Files.exists(p) ? missing(p, "file or directory")
                    : Files.isDirectory(p) ? unreadableDirectory(p) : unreadableFile(p));
        }
    }

    /** A file to write (created or replaced). */
    static final class OutputFile implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return PathChecks.convert(value, PathChecks::unwritableFile);
        }
    }

    /** A directory to write into (created when missing). */
    static final class OutputDirectory implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return PathChecks.convert(value, PathChecks::unwritableDirectory);
        }
    }
}
