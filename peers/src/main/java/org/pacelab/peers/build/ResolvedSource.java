package org.pacelab.peers.build;

import java.nio.file.Path;

/**
 * A component's source tree, ready to build from.
 *
 * @param tree   the tree (extracted or checked out in the build's work directory, or the user's own directory)
 * @param commit the commit or tag it holds ("unknown" when it cannot be told)
 * @param origin where it came from, for the build record (a file, a directory or a URL)
 */
public record ResolvedSource(SourceComponent component, Path tree, String commit, String origin) {
    /** The commit as snapshots abbreviate it. */
    public String shortCommit() {
        return SourceComponent.isCommit(commit) ? commit.substring(0, 12) : commit;
    }
}
