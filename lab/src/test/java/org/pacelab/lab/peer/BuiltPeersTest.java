package org.pacelab.lab.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.testing.CacheBuilds;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.peers.build.PeerCache;

/** The peers pacelab builds (picoquic, quic-go): usable when their build is in the cache; their command lines and options. */
class BuiltPeersTest {
    private static final PacelabLauncher PACELAB = new PacelabLauncher(List.of("pl"), Set.of("server", "client"));

    @TempDir
    Path tmp;

    /** A build in the cache as {@code PeerCache} publishes one: PEER-ID/ with the programs and the record, PEER → it. */
    private PeerCache cacheWith(String peer, String id, String record, String... programs) throws IOException {
        return CacheBuilds.with(tmp.resolve("cache"), peer, id, record, programs);
    }

    private ServerSetup server(Map<String, String> options, Protocol protocol) {
        return new ServerSetup(tmp, "127.0.0.1", 4434, tmp.resolve("www"), tmp.resolve("cert.pem"), tmp.resolve("key.pem"),
                tmp.resolve("keys.log"), tmp.resolve("qlog"), options, protocol);
    }

    private ClientSetup client(Map<String, String> options, Protocol protocol, String... paths) {
        return new ClientSetup(tmp, "127.0.0.1", 5000, List.of(paths), 2048, tmp.resolve("cert.pem"), tmp.resolve("keys.log"),
                90_000_000_000L, options, protocol);
    }

    @Test
    void picoquicIsNotUsableUntilBuiltAndSaysHow() {
        PeerCache empty = new PeerCache(tmp.resolve("empty"));
        Availability a = new PicoquicPeer(empty).availability(Role.SERVER, new FakeHost().with("cmake", "make", "cc", "c++",
                "pkg-config", "tar"), PACELAB);
        assertFalse(a.usable());
        assertEquals("picoquic is not built here; 'pacelab peers install picoquic' builds it into " + empty.root(), a.reason());
        assertEquals(List.of(), a.debianPackages());
        Availability noTools = new PicoquicPeer(empty).availability(Role.SERVER, new FakeHost(), PACELAB);
        assertEquals("picoquic is not built here; 'pacelab peers install picoquic' builds it into " + empty.root()
                + " (it needs cmake, make, gcc, g++, pkg-config, tar to build)", noTools.reason());
        assertEquals(List.of("build-essential", "cmake", "libssl-dev", "pkg-config"), noTools.debianPackages());
        assertEquals("picoquic (not built)", new PicoquicPeer(empty).version(Role.SERVER, new FakeHost(), PACELAB));
    }

    @Test
    void picoquicRunsPicoquicdemoWithItsOwnFlags() throws IOException {
        PeerCache cache = CacheBuilds.picoquic(tmp.resolve("cache"));
        PicoquicPeer p = new PicoquicPeer(cache);
        assertTrue(p.availability(Role.CLIENT, new FakeHost(), PACELAB).usable());
        assertEquals("picoquic d199d45be869 (picotls f07f1c8c68b2; built 2026-01-02T03:04:05Z)", p.version(Role.SERVER, new FakeHost(), PACELAB));
        String demo = cache.root().resolve("picoquic-d199d45be869+f07f1c8c68b2/bin/picoquicdemo").toString();
        Launch s = p.server(server(Map.of("cc", "bbr1", "gso", "off", "ciphers", "chacha20"), Protocol.H3), PACELAB);
        assertEquals(List.of(demo, "-p", "4434", "-c", tmp.resolve("cert.pem").toString(), "-k", tmp.resolve("key.pem").toString(), "-w",
                tmp.resolve("www").toString(), "-G", "bbr1", "-0", "-C", "20", "-q", tmp.resolve("qlog").toString(), "-8"), s.command());
        assertEquals(Map.of("SSLKEYLOGFILE", tmp.resolve("keys.log").toString()), s.environment());
        assertEquals(new Readiness.UdpBound(4434), s.readiness());
        Launch c = p.client(client(Map.of("cc", "reno", "gso", "16"), Protocol.HQ_INTEROP, "/a.bin", "/b.bin"), PACELAB);
        assertEquals(List.of(demo, "-n", "localhost", "-o", tmp.resolve("downloads").toString(), "-a", "hq-interop", "-G", "newreno",
                "-8", "127.0.0.1", "5000", "0:-:/a.bin;4:-:/b.bin"), c.command());
    }

    @Test
    void picoquicSaysWhichControllersItHas() {
        PicoquicPeer p = new PicoquicPeer(new PeerCache(tmp));
        PeerOption cc = p.options(Role.SERVER).getFirst();
        assertNull(cc.problem("CUBIC"));
        assertEquals("cc: 'vegas' is not a congestion controller of picoquic; valid values: newreno, cubic, dcubic, fast, bbr, "
                + "prague, bbr1, c4", cc.problem("vegas"));
        assertEquals("cc: 'bbr2' is not a congestion controller of picoquic (did you mean 'bbr'?); valid values: newreno, cubic, "
                + "dcubic, fast, bbr, prague, bbr1, c4", cc.problem("bbr2"));
        PeerOption gso = p.options(Role.SERVER).get(1);
        assertNull(gso.problem("1"));
        assertEquals("gso: 'maybe' is not valid; valid values: on, off, or a number of datagrams (1 = off)", gso.problem("maybe"));
    }

    @Test
    void quicGoRunsPacelabsQuicGoProgramsWithTheSharedConventions() throws IOException {
        PeerCache cache = cacheWith("quic-go", "0.29.0-1+abc", "version=0.29.0-1 (Debian golang-github-lucas-clemente-quic-go-dev), "
                + "go1.19.8 linux/amd64\nbuilt=2026-01-02T03:04:05Z\n", "bin/quic-go-server", "bin/quic-go-client");
        QuicGoPeer q = new QuicGoPeer(cache);
        assertEquals("quic-go 0.29.0-1 (Debian golang-github-lucas-clemente-quic-go-dev), go1.19.8 linux/amd64 (built "
                + "2026-01-02T03:04:05Z)", q.version(Role.SERVER, new FakeHost(), PACELAB));
        Path bin = cache.root().resolve("quic-go-0.29.0-1+abc/bin");
        Launch s = q.server(server(Map.of("cc", "cubic"), Protocol.HQ_INTEROP), PACELAB);
        assertEquals(List.of(bin.resolve("quic-go-server").toString(), "--listen", "127.0.0.1:4434", "--root", tmp.resolve("www").toString(),
                "--cert", tmp.resolve("cert.pem").toString(), "--key", tmp.resolve("key.pem").toString(), "--alpn", "hq-interop",
                "--qlog-dir", tmp.resolve("qlog").toString(), "--keylog", tmp.resolve("keys.log").toString(), "--cc", "cubic"),
                s.command());
        Launch c = q.client(client(Map.of(), Protocol.H3, "/a"), PACELAB);
        assertEquals(List.of(bin.resolve("quic-go-client").toString(), "--insecure", "--json", tmp.resolve("client.json").toString(),
                "--timeout", "90000ms", "--alpn", "h3", "--keylog", tmp.resolve("keys.log").toString(), "https://127.0.0.1:5000/a"),
                c.command());
        assertEquals("cc: 'bbr' is not a congestion controller of quic-go 0.29; valid values: cubic",
                q.options(Role.CLIENT).getFirst().problem("bbr"));
    }

    @Test
    void aioquicSpeaksHttp3OnlyWhereItsBuildFoundPylsqpack() throws IOException {
        PeerCache none = new PeerCache(tmp.resolve("none"));
        assertEquals(List.of(Protocol.HQ_INTEROP), new AioquicPeer(none).protocols());
        PeerCache cache = cacheWith("aioquic", "6d36838d008c+26.2.0+26.1.0+py3.11.7+abc", "protocols=hq-interop\n"
                + "source.aioquic.commit=6d36838d008c\nsource.pyopenssl.commit=26.2.0\nsource.service-identity.commit=26.1.0\n"
                + "version=Python 3.11.7, hq-interop only (no pylsqpack)\n", "bin/aioquic-server", "bin/aioquic-client");
        AioquicPeer a = new AioquicPeer(cache);
        assertEquals(List.of(Protocol.HQ_INTEROP), a.protocols());
        assertEquals("aioquic 6d36838d008c (pyopenssl 26.2.0; service-identity 26.1.0; Python 3.11.7, hq-interop only (no pylsqpack))",
                a.version(Role.CLIENT, new FakeHost(), PACELAB));
        Path bin = cache.root().resolve("aioquic-6d36838d008c+26.2.0+26.1.0+py3.11.7+abc/bin");
        Launch s = a.server(server(Map.of("cc", "newreno"), Protocol.HQ_INTEROP), PACELAB);
        assertEquals(List.of(bin.resolve("aioquic-server").toString(), "--listen", "127.0.0.1:4434", "--root", tmp.resolve("www").toString(),
                "--cert", tmp.resolve("cert.pem").toString(), "--key", tmp.resolve("key.pem").toString(), "--alpn", "hq-interop",
                "--qlog-dir", tmp.resolve("qlog").toString(), "--keylog", tmp.resolve("keys.log").toString(), "--cc", "reno"),
                s.command());
        assertEquals("cc: 'bbr' is not a congestion controller of aioquic; valid values: reno, newreno, cubic",
                a.options(Role.SERVER).getFirst().problem("bbr"));
        // a pacelab client with an aioquic server speaks hq-interop; ngtcp2 (HTTP/3 only) cannot pair with it
        assertEquals(Protocol.HQ_INTEROP, Protocol.common(a.protocols(), new PacelabPeer().protocols()));
        assertNull(Protocol.common(a.protocols(), new Ngtcp2Peer().protocols()));
        Files.writeString(cache.root().resolve("aioquic/build.properties"), "protocols=hq-interop,h3\n");
        assertEquals(List.of(Protocol.H3, Protocol.HQ_INTEROP), a.protocols());
    }
}
