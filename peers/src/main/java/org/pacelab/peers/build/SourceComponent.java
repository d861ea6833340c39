package org.pacelab.peers.build;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One upstream source a peer is built from, pinned: its repository, the commit or tag, a file that tells its tree
 * apart from others, and its licence.
 *
 * @param name       the name snapshots carry ({@code picoquic-d199d45be869.tar.gz})
 * @param repository the upstream git repository
 * @param ref        the pinned commit (40 hex digits) or tag
 * @param marker     a path relative to the tree's root that only this project's tree has
 * @param licence    its SPDX licence identifier
 * @param submodules whether a checkout needs its git submodules
 */
public record SourceComponent(String name, String repository, String ref, String marker, String licence, boolean submodules) {
    /** What snapshot names carry: the first 12 digits of a commit, or the tag. */
    public String shortRef() {
        return isCommit(ref) ? ref.substring(0, 12) : ref;
    }

    /** Whether {@code dir} is a source tree of this component. */
    public boolean isTree(Path dir) {
        return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve(marker));
    }

    static boolean isCommit(String ref) {
        return ref.matches("[0-9a-f]{40}");
    }
}
