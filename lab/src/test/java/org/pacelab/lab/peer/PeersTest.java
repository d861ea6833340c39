package org.pacelab.lab.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.testing.FakeHost;

class PeersTest {
    private static final PacelabLauncher PACELAB = new PacelabLauncher(List.of("java", "-cp", "x", "Main"), Set.of("server", "client"));

    @TempDir
    Path tmp;

    private static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private ServerSetup server(Map<String, String> options) {
        return new ServerSetup(tmp, "127.0.0.1", 4434, tmp.resolve("www"), tmp.resolve("cert.pem"), tmp.resolve("key.pem"),
                tmp.resolve("keys.log"), tmp.resolve("qlog"), options, Protocol.H3);
    }

    private ClientSetup client(Map<String, String> options, String... paths) {
        return new ClientSetup(tmp, "127.0.0.1", 5000, List.of(paths), 2048, tmp.resolve("cert.pem"), null, 90_000_000_000L, options, Protocol.H3);
    }

    @Test
    void pacelabServerGetsItsFilesAndEveryOptionAsAFlag() {
        Launch l = new PacelabPeer().server(server(Map.of("cc", "bbr")), PACELAB);
        assertEquals(List.of("java", "-cp", "x", "Main", "server", "--listen", "127.0.0.1:4434", "--root", tmp.resolve("www").toString(),
                "--cert", tmp.resolve("cert.pem").toString(), "--key", tmp.resolve("key.pem").toString(), "--alpn", "h3",
                "--qlog-dir", tmp.resolve("qlog").toString(), "--keylog", tmp.resolve("keys.log").toString(), "--cc", "bbr"), l.command());
        assertEquals(new Readiness.UdpBound(4434), l.readiness());
    }

    @Test
    void pacelabClientWritesItsJsonLogAndFetchesEveryPath() throws IOException {
        PacelabPeer p = new PacelabPeer();
        Launch l = p.client(client(Map.of(), "/a", "/b"), PACELAB);
        assertTrue(l.command().containsAll(List.of("client", "--insecure", "--json", tmp.resolve("client.json").toString(),
                "--timeout", "90000ms", "https://127.0.0.1:5000/a", "https://127.0.0.1:5000/b")), l.command().toString());
        Files.writeString(tmp.resolve("client.json"), """
                {"wall_time_ns": 5000000, "transfers": [
                  {"url": "a", "bytes": 1024, "request_ns": 10, "first_byte_ns": 20, "last_byte_ns": 30, "status": 200},
                  {"url": "b", "bytes": 1024, "request_ns": 10, "first_byte_ns": 20, "last_byte_ns": 40, "status": 200}]}
                """);
        ClientOutcome o = p.clientOutcome(client(Map.of(), "/a", "/b"), tmp.resolve("none"));
        assertEquals(2048, o.bytes());
        assertEquals(tmp.resolve("client.json"), o.clientLog());
    }

    @Test
    void pacelabOptionsAreCheckedWithTheStacksOwnRules() {
        PacelabPeer p = new PacelabPeer();
        PeerOption cc = p.options(Role.SERVER).stream().filter(o -> o.name().equals("cc")).findFirst().orElseThrow();
        assertNull(cc.problem("bbr"));
        assertTrue(cc.problem("vegas").startsWith("cc: 'vegas' is not"), cc.problem("vegas"));
        assertNull(p.combinationProblem(Role.SERVER, Map.of("cc", "cubic", "rollback", "quiche", "send", "hybrid")));
        assertTrue(p.combinationProblem(Role.SERVER, Map.of("cc", "newreno", "rollback", "quiche")).contains("--rollback quiche"));
        PeerOption send = p.options(Role.SERVER).stream().filter(o -> o.name().equals("send")).findFirst().orElseThrow();
        assertEquals("send: 'hybird' is not a send strategy; valid values are park, park-tight, hybrid, spin", send.problem("hybird"));
        Launch l = p.server(server(ordered("gso", "16", "txtime", "on", "gro", "off")), PACELAB);
        // gro is on by default: off becomes --no-gro
        assertEquals(List.of("--gso", "16", "--txtime", "--no-gro"), l.command().subList(l.command().size() - 4, l.command().size()));
    }

    @Test
    void pacelabEndpointsTakeAWarmupThatTheSimulatorDrops() {
        PacelabPeer p = new PacelabPeer();
        assertTrue(p.options(Role.SERVER).stream().anyMatch(o -> o.name().equals("warmup")));
        assertTrue(p.options(Role.CLIENT).stream().anyMatch(o -> o.name().equals("warmup")));
        assertNull(SimulatedPacelab.problem(Role.CLIENT, Map.of("warmup", "50MiB"), null));
        Launch l = p.server(server(ordered("warmup", "200MiB")), PACELAB);
        assertEquals(List.of("--warmup", "200MiB"), l.command().subList(l.command().size() - 2, l.command().size()));
        assertNull(SimulatedPacelab.problem(Role.SERVER, Map.of("warmup", "200MiB", "cc", "cubic"), null));
        assertEquals(Map.of("--cc", "cubic"), SimulatedPacelab.options(Map.of("warmup", "200MiB", "cc", "cubic"), Map.of(), null));
    }

    @Test
    void ngtcp2MapsOptionNamesAndCountsDownloadedBytes() throws IOException {
        Ngtcp2Peer p = new Ngtcp2Peer();
        Launch s = p.server(server(Map.of("cc", "newreno", "gso", "1")), PACELAB);
        assertEquals(List.of("gtlsserver", "-q", "-d", tmp.resolve("www").toString(), "--cc=reno", "--max-gso-dgrams=1",
                "--qlog-dir=" + tmp.resolve("qlog"), "127.0.0.1", "4434", tmp.resolve("key.pem").toString(),
                tmp.resolve("cert.pem").toString()), s.command());
        assertEquals(Map.of("SSLKEYLOGFILE", tmp.resolve("keys.log").toString()), s.environment());
        ClientSetup c = client(Map.of(), "/a", "/b");
        Launch l = p.client(c, PACELAB);
        assertTrue(l.command().containsAll(List.of("-n", "2", "127.0.0.1", "5000", "https://127.0.0.1:5000/a")), l.command().toString());
        Path downloads = tmp.resolve(Ngtcp2Peer.DOWNLOADS);
        Files.write(downloads.resolve("a"), new byte[1000]);
        Files.write(downloads.resolve("b"), new byte[1048]);
        assertEquals(2048, p.clientOutcome(c, tmp.resolve("none")).bytes());
        assertEquals(0, Files.list(downloads).count());
    }

    @Test
    void ngtcp2IsUsableOnlyWhereItsProgramIs() {
        Ngtcp2Peer p = new Ngtcp2Peer();
        assertTrue(p.availability(Role.SERVER, new FakeHost().with("gtlsserver"), PACELAB).usable());
        Availability a = p.availability(Role.CLIENT, new FakeHost().with("gtlsserver"), PACELAB);
        assertFalse(a.usable());
        assertEquals("gtlsclient is not installed (Debian package ngtcp2-client)", a.reason());
        assertEquals(List.of("ngtcp2-client"), a.debianPackages());
    }

    @Test
    void nginxWritesAPrivateConfigurationAndSetsTheTcpControllerFirst() throws IOException {
        Launch l = new NginxPeer().server(server(Map.of("cc", "newreno")), PACELAB);
        String conf = Files.readString(tmp.resolve("nginx/nginx.conf"));
        assertTrue(conf.contains("listen 127.0.0.1:4434 ssl http2;"), conf);
        assertTrue(conf.contains("root " + tmp.resolve("www") + ";"), conf);
        assertEquals(List.of(List.of("sysctl", "-q", "-w", "net.ipv4.tcp_congestion_control=reno")), l.before());
        assertEquals(new Readiness.TcpListening(4434), l.readiness());
        assertEquals("daemon off;", l.command().getLast());
        assertFalse(new NginxPeer().writesKeyLog(Role.SERVER));
        assertTrue(new CurlPeer().writesKeyLog(Role.CLIENT));
    }

    @Test
    void curlAddsUpThePerTransferSizes() throws IOException {
        CurlPeer p = new CurlPeer();
        ClientSetup c = client(Map.of(), "/a", "/b");
        Launch l = p.client(c, PACELAB);
        assertTrue(l.command().containsAll(List.of("--http2", "--parallel", "--output", "/dev/null", "https://127.0.0.1:5000/b")));
        Path out = tmp.resolve("out");
        Files.writeString(out, "1000\n1048\n");
        assertEquals(2048, p.clientOutcome(c, out).bytes());
    }

    @Test
    void chromiumPinsTheCertificateAndReadsTheResultFromTheDom() throws IOException {
        Path cert = tmp.resolve("cert.pem");
        try (var in = PeersTest.class.getResourceAsStream("/spki-test-cert.pem")) {
            Files.write(cert, in.readAllBytes());
        }
        assertEquals("khBp/inrcyqcJzqhxlhncn6mqEKQqaLDwMSOJRz7jXc=", ChromiumPeer.spkiHash(cert));
        ChromiumPeer p = new ChromiumPeer();
        p.prepareDocumentRoot(tmp);
        assertTrue(Files.readString(tmp.resolve(ChromiumPeer.PAGE)).contains("getAll('p')"));
        ClientSetup c = client(Map.of(), "/data-1.bin", "/data-2.bin");
        Launch l = p.client(c, PACELAB);
        assertTrue(l.command().contains("--origin-to-force-quic-on=127.0.0.1:5000"));
        assertTrue(l.command().contains("--ignore-certificate-errors-spki-list=khBp/inrcyqcJzqhxlhncn6mqEKQqaLDwMSOJRz7jXc="));
        assertEquals("https://127.0.0.1:5000/pacelab-fetch.html?p=%2Fdata-1.bin&p=%2Fdata-2.bin", l.command().getLast());
        Path dom = tmp.resolve("dom");
        Files.writeString(dom, "<html><body><pre id=\"result\">bytes=2048</pre><script></script></body></html>");
        assertEquals(2048, p.clientOutcome(c, dom).bytes());
        Files.writeString(dom, "<html><body><pre id=\"result\">error=/data-1.bin: HTTP 404</pre></body></html>");
        IOException e = assertThrows(IOException.class, () -> p.clientOutcome(c, dom));
        assertEquals("chromium's download failed: /data-1.bin: HTTP 404", e.getMessage());
    }

    @Test
    void quicheAndKwikArePacelabSubcommandsWithTheSameConventions() {
        PacelabLauncher withPeers = new PacelabLauncher(List.of("pl"), Set.of("peer quiche-server", "peer quiche-client"));
        QuichePeer q = new QuichePeer();
        assertTrue(q.availability(Role.SERVER, new FakeHost(), withPeers).usable());
        assertEquals("this build has no 'pacelab peer kwik-server'",
                new KwikPeer().availability(Role.SERVER, new FakeHost(), withPeers).reason());
        Launch s = q.server(server(ordered("cc", "bbr", "gso", "8")), withPeers);
        assertEquals(List.of("pl", "peer", "quiche-server", "--listen", "127.0.0.1:4434", "--root", tmp.resolve("www").toString(),
                "--cert", tmp.resolve("cert.pem").toString(), "--key", tmp.resolve("key.pem").toString(),
                "--qlog-dir", tmp.resolve("qlog").toString(), "--keylog", tmp.resolve("keys.log").toString(),
                "--cc", "bbr", "--gso", "8"), s.command());
        KwikPeer k = new KwikPeer();
        assertFalse(k.writesKeyLog(Role.SERVER));
        assertTrue(k.writesKeyLog(Role.CLIENT));
        ClientSetup c = new ClientSetup(tmp, "127.0.0.1", 5000, List.of("/a"), 1, tmp.resolve("cert.pem"), tmp.resolve("keys.log"),
                1_000_000_000L, Map.of(), Protocol.H3);
        assertEquals(List.of("pl", "peer", "kwik-client", "--insecure", "--json", tmp.resolve("client.json").toString(), "--timeout",
                "1000ms", "--keylog", tmp.resolve("keys.log").toString(), "https://127.0.0.1:5000/a"), k.client(c, withPeers).command());
        assertNull(q.options(Role.SERVER).getFirst().problem("newreno"));
        assertEquals("gso: 65 is out of range; valid: 0 to 64", q.options(Role.SERVER).get(2).problem("65"));
    }

    @Test
    void registryKnowsEveryPeerOnce() {
        PeerRegistry r = PeerRegistry.standard();
        assertEquals(List.of("pacelab", "ngtcp2", "quiche", "kwik", "picoquic", "aioquic", "quic-go", "nginx", "curl", "chromium"), r.names());
        assertThrows(IllegalArgumentException.class, () -> new PeerRegistry(List.of(new PacelabPeer(), new PacelabPeer())));
    }
}
