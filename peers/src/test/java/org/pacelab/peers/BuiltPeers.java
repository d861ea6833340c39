package org.pacelab.peers;

import java.nio.file.Files;
import java.nio.file.Path;

import org.pacelab.peers.build.InstalledBuild;
import org.pacelab.peers.build.PeerBuild;
import org.pacelab.peers.build.PeerCache;
import org.pacelab.peers.build.PeerSources;

/**
 * The peers pacelab builds, as tests find them: the build in the user's peer cache ({@code ./run-tests} makes it
 * with {@code scripts/install-peers.sh}), and the source snapshots tests build from ({@code PACELAB_PEER_SOURCES},
 * else {@code ../shared/peer-sources} beside the repository, as CI has them).
 */
public final class BuiltPeers {
    private BuiltPeers() {}

    /** The build of the peer in use; under CI=true its absence fails the test, otherwise it is skipped. */
    public static InstalledBuild require(PeerBuild build, String program) {
        InstalledBuild b = PeerCache.standard().installed(build.peer()).filter(x -> x.runnable(program)).orElse(null);
        Interop.require(b != null, build.peer() + " is not built in " + PeerCache.standard().root() + " (./run-tests builds it, or "
                + "'./pacelab peers install " + build.peer() + " --source ../shared/peer-sources')");
        return b;
    }

    /** The directory of source snapshots, or null when there is none. */
    public static Path sources() {
        String env = System.getenv(PeerSources.ENVIRONMENT);
        if (env != null && !env.isBlank() && Files.isDirectory(Path.of(env))) {
            return Path.of(env);
        }
        // Maven runs a module's tests in the module's directory; the repository's root is its parent
        Path shared = Path.of("").toAbsolutePath().getParent().resolve("../shared/peer-sources").normalize();
        return Files.isDirectory(shared) ? shared : null;
    }

    /** The snapshots directory; under CI=true its absence fails the test, otherwise it is skipped. */
    public static Path requireSources() {
        Path s = sources();
        Interop.require(s != null, "no peer source snapshots: set " + PeerSources.ENVIRONMENT + " or put them in ../shared/peer-sources");
        return s;
    }
}
