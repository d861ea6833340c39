package org.pacelab.peers.build;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * A peer built into the cache: its directory and the record of the build ({@code build.properties}): the peer, the
 * commit and origin of each source, when it was built, and what the build says about itself (programs, protocols).
 */
public record InstalledBuild(String peer, Path dir, Properties record) {
    public static final String RECORD = "build.properties";

    /** A value of the build record, or null. */
    public String get(String key) {
        return record.getProperty(key);
    }

    /** The commit a component was built from ("unknown" when not recorded). */
    public String commit(String component) {
        return record.getProperty("source." + component + ".commit", "unknown");
    }

    /** A file of the build, by its path relative to the build's directory. */
    public Path file(String relative) {
        return dir.resolve(relative);
    }

    /** Whether the file exists and can be run. */
    public boolean runnable(String relative) {
        Path p = file(relative);
        return Files.isRegularFile(p) && Files.isExecutable(p);
    }

    /**
     * What is wrong with the build's programs, or null: each of {@code programs} must be runnable, and
     * {@code probe} run with {@code flag} (its usage) must print {@code expected}.
     */
    public String programsProblem(List<String> programs, String probe, String flag, String expected) {
        for (String program : programs) {
            if (!runnable(program)) {
                return file(program) + " is missing or not executable";
            }
        }
        Commands.Result r = Commands.run(List.of(file(probe).toString(), flag), dir, 60);
        return r.output().contains(expected) ? null : file(probe) + " " + flag + " did not print its usage ("
                + expected + "): " + r.output().lines().reduce((a, b) -> b).orElse("(no output)");
    }

    /** The build's identity: the short commits of its sources, e.g. {@code d199d45be869+f07f1c8c68b2}. */
    public String id() {
        return record.getProperty("id", "unknown");
    }
}
