package org.pacelab.peers.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.BuiltPeers;

/**
 * picoquic built from the source snapshots ({@code PACELAB_PEER_SOURCES}, as CI has them) into a temporary cache: the
 * build runs, records its sources, and a second install reuses it without building again.
 */
@Tag("interop")
@Timeout(value = 30, unit = java.util.concurrent.TimeUnit.MINUTES)
class PicoquicBuildTest {
    @TempDir
    Path tmp;

    @Test
    void buildsFromTheSnapshotsAndReusesTheBuild() throws Exception {
        Path snapshots = BuiltPeers.requireSources();
        PeerCache cache = new PeerCache(tmp.resolve("cache"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PeerSources sources = new PeerSources(List.of(), snapshots, Programs.ofThisProcess());
        PeerBuilder builder = new PeerBuilder(cache, sources, Programs.ofThisProcess(), new PrintStream(out, true, StandardCharsets.UTF_8));
        PicoquicBuild picoquic = new PicoquicBuild();

        PeerBuilder.Outcome first = builder.install(picoquic, false);
        assertFalse(first.reused());
        InstalledBuild b = cache.installed("picoquic").orElseThrow();
        assertTrue(b.runnable(PicoquicBuild.PROGRAM));
        assertEquals("d199d45be869", b.commit("picoquic"));
        assertEquals("f07f1c8c68b2", b.commit("picotls"));
        assertEquals(snapshots.resolve("picoquic-d199d45be869.tar.gz").toAbsolutePath().normalize().toString(),
                b.get("source.picoquic.origin"));
        assertEquals("d199d45be869+f07f1c8c68b2", b.id());
        assertEquals(cache.root().resolve("picoquic-d199d45be869+f07f1c8c68b2"), b.dir());
        FileTime built = Files.getLastModifiedTime(b.file(PicoquicBuild.PROGRAM));
        try (var s = Files.list(cache.root())) {
            assertEquals(List.of(".picoquic.lock", "picoquic", "picoquic-d199d45be869+f07f1c8c68b2"),
                    s.map(p -> p.getFileName().toString()).sorted().toList(), "no staging directory is left");
        }

        PeerBuilder.Outcome second = builder.install(picoquic, false);
        assertTrue(second.reused());
        assertEquals(b.dir(), second.build().dir());
        assertEquals(built, Files.getLastModifiedTime(b.file(PicoquicBuild.PROGRAM)), "the program was not built again");
        assertEquals(1, out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("building picoquic")).count(),
                out.toString(StandardCharsets.UTF_8));
    }
}
