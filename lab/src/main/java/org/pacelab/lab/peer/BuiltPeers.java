package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.pacelab.lab.host.Host;
import org.pacelab.peers.build.InstalledBuild;
import org.pacelab.peers.build.PeerBuild;
import org.pacelab.peers.build.PeerCache;
import org.pacelab.peers.build.Tool;

/**
 * What the peers pacelab builds into the peer cache (picoquic, aioquic, quic-go) share: whether their build is
 * there and runs, the sentence that says how to get it when it is not, and their version with source commits.
 */
final class BuiltPeers {
    private BuiltPeers() {}

    /** The build in use, when it is complete and its program runs. */
    static Optional<InstalledBuild> usable(PeerCache cache, PeerBuild build, String program) {
        return cache.installed(build.peer()).filter(b -> b.runnable(program));
    }

    /**
     * Usable when built; otherwise "picoquic is not built here; 'pacelab peers install picoquic' builds it into ..."
     * with the Debian packages of the build's tools that are missing.
     */
    static Availability availability(PeerCache cache, PeerBuild build, String program, Host host) {
        if (usable(cache, build, program).isPresent()) {
            return Availability.USABLE;
        }
        List<String> missingTools = build.tools().stream().filter(t -> host.which(t.program()).isEmpty()).map(Tool::debianPackage)
                .distinct().toList();
        String needs = missingTools.isEmpty() ? "" : " (it needs " + String.join(", ", missingTools) + " to build)";
        List<String> packages = missingTools.isEmpty() ? List.of() : build.debianPackages();
        return Availability.missing(build.peer() + " is not built here; 'pacelab peers install " + build.peer() + "' builds it into "
                + cache.root() + needs, packages);
    }

    /**
     * "picoquic d199d45be869 (picotls f07f1c8c68b2; built 2026-05-01T10:00:00Z)": the peer's own source commit, then
     * the other sources' and what the build record adds as {@code version} (for a peer built against Debian's
     * packages, its version: "quic-go 0.29.0-1 (Debian ..., go1.19.8; built ...)"); "picoquic (not built)".
     */
    static String version(PeerCache cache, PeerBuild build) {
        Optional<InstalledBuild> b = cache.installed(build.peer());
        if (b.isEmpty()) {
            return build.peer() + " (not built)";
        }
        List<String> parts = new java.util.ArrayList<>();
        String head = null;
        for (var c : build.components()) {
            String commit = b.get().commit(c.name());
            String shortCommit = commit.matches("[0-9a-f]{13,}") ? commit.substring(0, 12) : commit;
            if (head == null) {
                head = shortCommit;
            } else {
                parts.add(c.name() + " " + shortCommit);
            }
        }
        String extra = b.get().get("version");
        if (head == null) {
            head = extra == null ? "(version unknown)" : extra;
        } else if (extra != null) {
            parts.add(extra);
        }
        String built = b.get().get("built");
        if (built != null) {
            parts.add("built " + built);
        }
        return build.peer() + " " + head + (parts.isEmpty() ? "" : " (" + String.join("; ", parts) + ")");
    }

    /** The sizes of the files a client saved into {@code dir}, which is emptied. */
    static long takeDownloads(Path dir) throws IOException {
        long bytes = 0;
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    if (Files.isRegularFile(f)) {
                        bytes += Files.size(f);
                    }
                    Files.delete(f);
                }
            }
        }
        return bytes;
    }
}
