package org.pacelab.peers.build;

import java.nio.file.Files;
import java.nio.file.Path;
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

    /** The build's identity: the short commits of its sources, e.g. {@code d199d45be869+f07f1c8c68b2}. */
    public String id() {
        return record.getProperty("id", "unknown");
    }
}
