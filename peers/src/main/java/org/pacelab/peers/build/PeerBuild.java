package org.pacelab.peers.build;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * How pacelab builds one peer from pinned sources into the cache: the sources and tools it needs (and the Debian
 * packages that provide the tools), the build itself, and a check that what was built runs.
 */
public interface PeerBuild {
    /** The peer's name, as scenarios use it. */
    String peer();

    /** The pinned sources, in build order (may be empty when everything comes from Debian packages). */
    List<SourceComponent> components();

    /**
     * What identifies a build besides its sources' commits (the Debian package it is built against, the Python it is
     * compiled for, the fingerprint of the programs written in this project), or "" when nothing does. It is part of
     * the build's directory name, so a change makes a new build rather than reusing an old one.
     */
    default String identity(Programs programs) {
        return "";
    }

    /** Programs the build needs. */
    List<Tool> tools();

    /** Every Debian package the build needs (tools, headers, libraries). */
    List<String> debianPackages();

    /**
     * One sentence when something the build needs beyond {@link #tools()} is missing (headers, a library, a Python
     * module), naming how to get it; null when all is there. Called after the tools were found.
     */
    default String missingPrerequisite(Programs programs) {
        return null;
    }

    /**
     * Builds into {@code context.out()} (empty, beside its final place in the cache: refer to files relative to
     * it) and returns what the build record should say besides the sources.
     */
    Properties build(Context context) throws BuildException;

    /** One sentence when the finished build does not run, else null. */
    String check(InstalledBuild build);

    /**
     * What a build works with.
     *
     * @param sources  the resolved sources by component name
     * @param out      where the build's result goes (its directory in the cache, while staged)
     * @param work     a temporary directory for intermediate files
     * @param jobs     parallel compile jobs
     */
    record Context(Map<String, ResolvedSource> sources, Path out, Path work, BuildLog log, Programs programs, int jobs) {
        public ResolvedSource source(String component) {
            return sources.get(component);
        }

        /** A tool's path (its presence was checked before the build started). */
        public String tool(String program) throws BuildException {
            return programs.find(program).map(Path::toString)
                    .orElseThrow(() -> new BuildException(program + " disappeared during the build"));
        }
    }
}
