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
}
