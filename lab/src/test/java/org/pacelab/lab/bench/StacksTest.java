package org.pacelab.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.Readiness;
import org.pacelab.lab.testing.CacheBuilds;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.peers.build.PeerCache;

/** The stacks of {@code pacelab bench loopback}: their names, their default command lines, and where their clients write. */
class StacksTest {
    @TempDir
    Path tmp;

    @Test
    void everyPeerNameGivesTheStackOfThatName() {
        PeerCache cache = new PeerCache(tmp.resolve("cache"));
        assertEquals(List.of("ngtcp2", "picoquic", "tcp"), Stacks.PEERS);
        for (String name : Stacks.PEERS) {
            assertEquals(name, Stacks.peer(name, cache).name());
        }
        assertNull(Stacks.peer("quinn", cache));
        assertNull(Stacks.peer("pacelab", cache));
    }

    @Test
    void picoquicRunsPicoquicdemoFromTheCacheWithItsDefaults() throws Exception {
        PeerCache cache = CacheBuilds.picoquic(tmp.resolve("cache"));
        BenchStack p = Stacks.peer("picoquic", cache);
        String demo = cache.root().resolve("picoquic-d199d45be869+f07f1c8c68b2/bin/picoquicdemo").toString();
        Path www = tmp.resolve("www");
        Launch s = p.server(tmp, 4434, www, tmp.resolve("cert.pem"), tmp.resolve("key.pem"));
        // the runner's and the interop matrix's start of the command line, nothing added: no -G, no -0, no qlog, no key log
        assertEquals(List.of(demo, "-p", "4434", "-c", tmp.resolve("cert.pem").toString(), "-k", tmp.resolve("key.pem").toString(),
                "-w", www.toString()), s.command());
        assertEquals(Map.of(), s.environment());
        assertEquals(new Readiness.UdpBound(4434), s.readiness());
        Path downloads = tmp.resolve("downloads");
        // HTTP/3 only (-a h3), as ngtcp2's client; one stream for the file, written into the downloads directory
        assertEquals(List.of(demo, "-n", "localhost", "-o", downloads.toString(), "-a", "h3", "127.0.0.1", "4434", "0:-:/file"),
                p.client(4434, "file", downloads));
        assertEquals(downloads.resolve("file"), p.downloaded(downloads, "file"));
        assertNull(p.unavailable(new FakeHost()));
        assertEquals("picoquic d199d45be869 (picotls f07f1c8c68b2; built 2026-01-02T03:04:05Z)", p.version(new FakeHost()));
    }

    @Test
    void picoquicNotBuiltSaysHowToBuildIt() {
        PeerCache empty = new PeerCache(tmp.resolve("empty"));
        BenchStack p = Stacks.peer("picoquic", empty);
        String why = p.unavailable(new FakeHost().with("cmake", "make", "cc", "c++", "pkg-config", "tar"));
        assertEquals("picoquic is not built here; 'pacelab peers install picoquic' builds it into " + empty.root(), why);
        assertEquals("picoquic (not built)", p.version(new FakeHost()));
    }

    @Test
    void everyPeerClientWritesTheFileIntoTheDownloadsDirectory() throws Exception {
        PeerCache cache = CacheBuilds.picoquic(tmp.resolve("cache"));
        Path downloads = tmp.resolve("downloads");
        assertEquals(List.of("gtlsclient", "-q", "--exit-on-all-streams-close", "--download", downloads.toString(), "127.0.0.1", "4434",
                "https://127.0.0.1:4434/file"), Stacks.peer("ngtcp2", cache).client(4434, "file", downloads));
        assertEquals(List.of("curl", "--insecure", "--http2", "--silent", "--show-error", "--fail", "--output",
                downloads.resolve("file").toString(), "https://127.0.0.1:4434/file"), Stacks.peer("tcp", cache).client(4434, "file", downloads));
        for (String name : Stacks.PEERS) {
            BenchStack s = Stacks.peer(name, cache);
            assertEquals(downloads.resolve("file"), s.downloaded(downloads, "file"), name);
            assertTrue(s.client(4434, "file", downloads).stream().anyMatch(a -> a.startsWith(downloads.toString())), name);
        }
    }
}
