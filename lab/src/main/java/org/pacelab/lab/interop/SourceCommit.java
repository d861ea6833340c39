package org.pacelab.lab.interop;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.pacelab.peers.build.Commands;

/**
 * The commit of the pacelab that runs, for the provenance of interop results: the short hash of the git work tree its
 * classes or jar live in (found by walking up to a {@code .git}), with {@code +changes} when tracked files differ from
 * it, or {@code unknown (…)} saying why there is none.
 */
final class SourceCommit {
    private SourceCommit() {}

    /** The commit of the build this class was loaded from. */
    static String ofThisBuild() {
        try {
            var source = SourceCommit.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return "unknown (no code source)";
            }
            return of(Path.of(source.getLocation().toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /** The commit of the git work tree holding {@code path}. */
    static String of(Path path) {
        Path dir = path.toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve(".git"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            return "unknown (" + path + " is not in a git work tree)";
        }
        Commands.Result head = Commands.run(List.of("git", "-C", dir.toString(), "rev-parse", "--short=7", "HEAD"), null, 30);
        if (!head.ok() || head.output().isBlank()) {
            return "unknown (git rev-parse in " + dir + ": " + head.output() + ")";
        }
        Commands.Result status = Commands.run(List.of("git", "-C", dir.toString(), "status", "--porcelain",
                "--untracked-files=no"), null, 30);
        return head.output().strip() + (status.ok() && !status.output().isBlank() ? "+changes" : "");
    }
}
