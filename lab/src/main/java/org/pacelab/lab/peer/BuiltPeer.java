package org.pacelab.lab.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.pacelab.lab.host.Host;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.peers.build.PeerBuild;
import org.pacelab.peers.build.PeerCache;

/**
 * A peer pacelab builds from pinned sources into the per-user peer cache ({@code pacelab peers install NAME}):
 * picoquic, aioquic and quic-go. Its availability, version and programs come from the cache; it plays both roles
 * in the relay and netns modes; its scenario options are fixed per peer.
 */
abstract class BuiltPeer implements Peer {
    protected final PeerCache cache;
    private final PeerBuild build;
    private final List<PeerOption> options;

    BuiltPeer(PeerCache cache, PeerBuild build, List<PeerOption> options) {
        this.cache = cache;
        this.build = build;
        this.options = options;
    }

    /** The name of the build's program that plays {@code role}. */
    abstract String program(Role role);

    @Override
    public List<PeerOption> options(Role role) {
        return options;
    }

    @Override
    public PeerBuild build() {
        return build;
    }

    @Override
    public Availability availability(Role role, Host host, PacelabLauncher pacelab) {
        return BuiltPeers.availability(cache, build, program(role), host);
    }

    @Override
    public String version(Role role, Host host, PacelabLauncher pacelab) {
        return BuiltPeers.version(cache, build);
    }

    /** The built program that plays {@code role}, by its absolute path in the cache (for the interop matrix). */
    public final Path executable(Role role) throws IOException {
        return programPath(role);
    }

    /** The built program that plays {@code role}, by its absolute path in the cache. */
    final Path programPath(Role role) throws IOException {
        String program = program(role);
        return BuiltPeers.usable(cache, build, program).map(b -> b.file(program))
                .orElseThrow(() -> new IOException(name() + " is not built; run 'pacelab peers install " + name() + "'"));
    }
}
