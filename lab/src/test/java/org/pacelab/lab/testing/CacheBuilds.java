package org.pacelab.lab.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.pacelab.peers.build.PeerCache;

/** Peer caches holding a build, for tests of the peers pacelab builds (picoquic, aioquic, quic-go). */
public final class CacheBuilds {
    private CacheBuilds() {}

    /**
     * A cache at {@code root} with a build in it as {@code PeerCache} publishes one: PEER-ID/ with the programs (empty
     * shell scripts) and the record, PEER → it.
     */
    public static PeerCache with(Path root, String peer, String id, String record, String... programs) throws IOException {
        Path dir = Files.createDirectories(root.resolve(peer + "-" + id));
        for (String p : programs) {
            Path f = dir.resolve(p);
            Files.createDirectories(f.getParent());
            Files.writeString(f, "#!/bin/sh\n");
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(dir.resolve("build.properties"), "peer=" + peer + "\nid=" + id + "\n" + record);
        Files.createSymbolicLink(root.resolve(peer), dir.getFileName());
        return new PeerCache(root);
    }

    /** A picoquic build as {@code pacelab peers install picoquic} leaves it (pinned commits, built 2026-01-02T03:04:05Z). */
    public static PeerCache picoquic(Path root) throws IOException {
        return with(root, "picoquic", "d199d45be869+f07f1c8c68b2", "source.picoquic.commit=d199d45be8690dfa8653e214733243524112e3c0\n"
                + "source.picotls.commit=f07f1c8c68b2\nbuilt=2026-01-02T03:04:05Z\n", "bin/picoquicdemo");
    }
}
