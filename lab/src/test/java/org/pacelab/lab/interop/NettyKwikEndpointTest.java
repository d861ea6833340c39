package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.pacelab.lab.peer.Launch;
import org.pacelab.lab.peer.PacelabLauncher;

/** The client processes of quiche and Kwik (pacelab's peer programs): Kwik one process per case, multiconnect included. */
class NettyKwikEndpointTest {
    private static final Path DIR = Path.of("/tmp/case");
    private static final PacelabLauncher PACELAB = new PacelabLauncher(List.of("pacelab"), Set.of("peer quiche-client", "peer kwik-client"));
    private static final List<String> URLS = List.of("https://127.0.0.1:4433/a", "https://127.0.0.1:4433/b", "https://127.0.0.1:4433/c");

    private static EndpointSetup client(String testname) {
        return client(testname, null);
    }

    private static EndpointSetup client(String testname, Path qlogDir) {
        return new EndpointSetup(DIR, testname, "hq-interop", null, null, null, URLS, null, DIR.resolve("downloads"), null,
                DIR.resolve("keys.log"), qlogDir, 300_000_000_000L);
    }

    @Test
    void kwikRunsMulticonnectAsOneProcessThatOpensAConnectionPerUrl() {
        List<Launch> l = NettyKwikEndpoint.kwik().client(client("multiconnect"), PACELAB);
        assertEquals(1, l.size());
        List<String> cmd = l.getFirst().command();
        assertEquals(List.of("pacelab", "peer", "kwik-client", "--alpn", "hq-interop", "-k", "-o",
                DIR.resolve("downloads").toString(), "--timeout", "300s", "--connection-per-url", "--keylog",
                DIR.resolve("keys.log").toString(), "--log", DIR.resolve("kwik-client.log").toString()),
                cmd.subList(0, cmd.size() - URLS.size()));
        assertEquals(URLS, cmd.subList(cmd.size() - URLS.size(), cmd.size()));
    }

    /** Kwik writes no qlog: its client keeps Kwik's own log in the run's directory, in every case it runs. */
    @Test
    void kwikClientKeepsItsLogInTheRunDirectory() {
        for (String testname : List.of("multiconnect", "transfer", "handshake")) {
            List<String> cmd = NettyKwikEndpoint.kwik().client(client(testname), PACELAB).getFirst().command();
            int i = cmd.indexOf("--log");
            assertTrue(i > 0, testname + ": " + cmd);
            assertEquals(DIR.resolve("kwik-client.log").toString(), cmd.get(i + 1), testname);
        }
        for (Launch l : NettyKwikEndpoint.quiche().client(client("transfer"), PACELAB)) {
            assertFalse(l.command().contains("--log"), l.command().toString());
        }
    }

    /** quiche's client writes a qlog per connection where the run asks for them, in every process; Kwik has none. */
    @Test
    void quicheClientWritesItsQlogsWhereTheRunAsks() {
        Path qlogs = DIR.resolve("qlog-client");
        for (String testname : List.of("multiconnect", "transfer", "handshake")) {
            for (Launch l : NettyKwikEndpoint.quiche().client(client(testname, qlogs), PACELAB)) {
                List<String> cmd = l.command();
                int i = cmd.indexOf("--qlog-dir");
                assertTrue(i > 0, testname + ": " + cmd);
                assertEquals(qlogs.toString(), cmd.get(i + 1), testname);
            }
            for (Launch l : NettyKwikEndpoint.quiche().client(client(testname), PACELAB)) {
                assertFalse(l.command().contains("--qlog-dir"), testname + ": " + l.command());
            }
            for (Launch l : NettyKwikEndpoint.kwik().client(client(testname, qlogs), PACELAB)) {
                assertFalse(l.command().contains("--qlog-dir"), testname + ": " + l.command());
            }
        }
    }

    @Test
    void quicheKeepsAProcessPerUrlForMulticonnect() {
        List<Launch> l = NettyKwikEndpoint.quiche().client(client("multiconnect"), PACELAB);
        assertEquals(URLS.size(), l.size());
        for (int i = 0; i < URLS.size(); i++) {
            List<String> cmd = l.get(i).command();
            assertFalse(cmd.contains("--connection-per-url"), cmd.toString());
            assertEquals(URLS.get(i), cmd.getLast());
        }
    }

    @Test
    void otherCasesFetchEveryUrlOverOneConnection() {
        for (String testname : List.of("transfer", "handshake")) {
            List<Launch> l = NettyKwikEndpoint.kwik().client(client(testname), PACELAB);
            assertEquals(1, l.size());
            List<String> cmd = l.getFirst().command();
            assertFalse(cmd.contains("--connection-per-url"), cmd.toString());
            assertEquals(URLS, cmd.subList(cmd.size() - URLS.size(), cmd.size()));
        }
    }

    @Test
    void onlyMulticonnectAsksForAConnectionPerUrl() {
        assertTrue(client("multiconnect").connectionPerUrl());
        for (String testname : List.of("transfer", "resumption", "zerortt", "handshake")) {
            assertFalse(client(testname).connectionPerUrl(), testname);
        }
        // the clients that cannot still get a process per URL
        assertEquals(URLS.size(), client("multiconnect").urlsPerProcess().size());
    }

    private static EndpointSetup server(String testname) {
        return new EndpointSetup(DIR, testname, "hq-interop", new java.net.InetSocketAddress("127.0.0.1", 4433), null, null,
                List.of(), DIR.resolve("www"), null, DIR.resolve("certs"), null, null, 60_000_000_000L);
    }

    private static List<String> serverCommand(NettyKwikEndpoint e, String testname) {
        return e.server(server(testname), PACELAB).command();
    }

    /** The test names each library takes in each role; the others say what the library lacks. */
    @Test
    void supportedTestNamesPerRole() {
        NettyKwikEndpoint quiche = NettyKwikEndpoint.quiche(), kwik = NettyKwikEndpoint.kwik();
        for (String t : List.of("handshake", "transfer", "http3", "multiconnect", "retry", "resumption", "zerortt")) {
            for (org.pacelab.lab.peer.Role r : org.pacelab.lab.peer.Role.values()) {
                assertEquals(null, quiche.unsupported(r, t), "quiche " + r + " " + t);
                assertEquals(null, kwik.unsupported(r, t), "kwik " + r + " " + t);
            }
        }
        assertEquals(null, quiche.unsupported(org.pacelab.lab.peer.Role.SERVER, "chacha20"));
        assertTrue(quiche.unsupported(org.pacelab.lab.peer.Role.CLIENT, "chacha20").contains("BoringSSL"));
        assertTrue(quiche.unsupported(org.pacelab.lab.peer.Role.CLIENT, "keyupdate").contains("key update"));
        for (org.pacelab.lab.peer.Role r : org.pacelab.lab.peer.Role.values()) {
            assertTrue(quiche.unsupported(r, "v2").contains("quiche_version_is_supported(0x6b3343cf)"), r.toString());
            assertTrue(quiche.unsupported(r, "ecn").contains("quiche_recv_info"), r.toString());
            assertTrue(kwik.unsupported(r, "ecn").contains("setTrafficClass"), r.toString());
            assertEquals(null, kwik.unsupported(r, "chacha20"), r.toString());
            assertEquals(null, kwik.unsupported(r, "v2"), r.toString());
        }
        assertEquals(null, kwik.unsupported(org.pacelab.lab.peer.Role.CLIENT, "keyupdate"));
        assertTrue(quiche.unsupported(org.pacelab.lab.peer.Role.SERVER, "connectionmigration").contains("preferred address"));
        assertTrue(kwik.unsupported(org.pacelab.lab.peer.Role.SERVER, "connectionmigration").contains("setPreferredAddress"));
        assertTrue(kwik.unsupported(org.pacelab.lab.peer.Role.SERVER, "multiplexing").contains("no option"));
    }

    @Test
    void serverOptionsOfTheTestNames() {
        NettyKwikEndpoint quiche = NettyKwikEndpoint.quiche(), kwik = NettyKwikEndpoint.kwik();
        assertTrue(serverCommand(quiche, "retry").contains("--retry"));
        assertTrue(serverCommand(kwik, "retry").contains("--retry"));
        assertTrue(serverCommand(quiche, "zerortt").contains("--early-data"));
        assertFalse(serverCommand(kwik, "zerortt").contains("--early-data"));
        assertTrue(serverCommand(kwik, "v2").contains("--v2"));
        for (String t : List.of("transfer", "resumption", "chacha20", "handshake")) {
            for (NettyKwikEndpoint e : List.of(quiche, kwik)) {
                List<String> cmd = serverCommand(e, t);
                for (String o : List.of("--retry", "--early-data", "--v2")) {
                    assertFalse(cmd.contains(o), t + ": " + cmd);
                }
            }
        }
    }

    /** quiche's client makes both connections of resumption and zerortt in one process (its session stays in memory). */
    @Test
    void quicheClientResumesInOneProcess() {
        for (String t : List.of("resumption", "zerortt")) {
            List<Launch> l = NettyKwikEndpoint.quiche().client(client(t), PACELAB);
            assertEquals(1, l.size(), t);
            List<String> cmd = l.getFirst().command();
            assertTrue(cmd.contains(t.equals("zerortt") ? "--zero-rtt" : "--resume"), t + ": " + cmd);
            assertEquals(URLS, cmd.subList(cmd.size() - URLS.size(), cmd.size()));
        }
    }

    /** Kwik's client is two processes sharing a ticket file in the run's directory; the second sends 0-RTT for zerortt. */
    @Test
    void kwikClientSharesItsTicketBetweenTwoProcesses() {
        String ticket = DIR.resolve(NettyKwikEndpoint.KWIK_TICKET).toString();
        for (String t : List.of("resumption", "zerortt")) {
            List<Launch> l = NettyKwikEndpoint.kwik().client(client(t), PACELAB);
            assertEquals(2, l.size(), t);
            for (int i = 0; i < 2; i++) {
                List<String> cmd = l.get(i).command();
                int at = cmd.indexOf("--session-ticket");
                assertTrue(at > 0, t + ": " + cmd);
                assertEquals(ticket, cmd.get(at + 1));
                assertEquals(t.equals("zerortt") && i == 1, cmd.contains("--zero-rtt"), t + " " + i + ": " + cmd);
            }
            assertEquals(URLS.subList(0, 1), l.get(0).command().subList(l.get(0).command().size() - 1, l.get(0).command().size()));
            List<String> second = l.get(1).command();
            assertEquals(URLS.subList(1, URLS.size()), second.subList(second.size() - URLS.size() + 1, second.size()));
        }
    }

    @Test
    void kwikClientOptionsOfTheTestNames() {
        List<String> chacha = NettyKwikEndpoint.kwik().client(client("chacha20"), PACELAB).getFirst().command();
        assertEquals("TLS_CHACHA20_POLY1305_SHA256", chacha.get(chacha.indexOf("--cipher-suites") + 1));
        assertTrue(NettyKwikEndpoint.kwik().client(client("keyupdate"), PACELAB).getFirst().command().contains("--key-update"));
        assertTrue(NettyKwikEndpoint.kwik().client(client("v2"), PACELAB).getFirst().command().contains("--negotiate-v2"));
        List<String> plain = NettyKwikEndpoint.kwik().client(client("retry"), PACELAB).getFirst().command();
        for (String o : List.of("--cipher-suites", "--key-update", "--negotiate-v2", "--session-ticket", "--zero-rtt")) {
            assertFalse(plain.contains(o), plain.toString());
        }
    }

    /** Kwik's client sends 0-RTT only over hq-interop: zerortt with an h3-only server is decided unsupported. */
    @Test
    void kwikClientZeroRttOverH3IsUnsupported() {
        InteropCase zerortt = InteropCases.get("zerortt").orElseThrow();
        NettyKwikEndpoint kwik = NettyKwikEndpoint.kwik();
        assertEquals(null, kwik.unsupported(org.pacelab.lab.peer.Role.CLIENT, "zerortt", "hq-interop"));
        assertEquals(null, kwik.unsupported(org.pacelab.lab.peer.Role.SERVER, "zerortt", "h3"));
        assertEquals(null, NettyKwikEndpoint.quiche().unsupported(org.pacelab.lab.peer.Role.CLIENT, "zerortt", "h3"));
        CheckResult r = InteropMatrix.before(zerortt, new Ngtcp2Endpoint(), kwik, "h3");
        assertTrue(r != null && r.reason().startsWith("client kwik: test 'zerortt' over h3: ") && r.reason().contains("StreamEarlyData"),
                String.valueOf(r));
        assertEquals(null, InteropMatrix.before(zerortt, NettyKwikEndpoint.quiche(), kwik, "hq-interop"));
    }
}
