package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.lab.peer.Role;

/**
 * The runner's test names as pacelab's aioquic and quic-go programs take them: which each supports in each role, the
 * reasons of the others (the peer's own limitation where there is one), and the options of each.
 */
class ProgramEndpointTest {
    private static final Path DIR = Path.of("/tmp/case");
    private static final List<String> URLS = List.of("https://127.0.0.1:4433/a", "https://127.0.0.1:4433/b", "https://127.0.0.1:4433/c");
    private static final ProgramEndpoint AIOQUIC = ProgramEndpoint.aioquic();
    private static final ProgramEndpoint QUIC_GO = ProgramEndpoint.quicGo();

    private static EndpointSetup client(String testname) {
        return new EndpointSetup(DIR, testname, "hq-interop", null, null, null, URLS, null, DIR.resolve("downloads"), null,
                DIR.resolve("keys.log"), DIR.resolve("qlog-client"), 60_000_000_000L);
    }

    private static EndpointSetup server(String testname) {
        return new EndpointSetup(DIR, testname, "hq-interop", new InetSocketAddress("127.0.0.1", 4433), null, null, List.of(),
                DIR.resolve("www"), null, DIR.resolve("certs"), DIR.resolve("keys.log"), DIR.resolve("qlog-server"), 60_000_000_000L);
    }

    /** The options a command line has beyond those of a plain transfer (same program, same setup otherwise). */
    private static List<String> extra(List<String> cmd, List<String> plain) {
        List<String> rest = new java.util.ArrayList<>(cmd);
        for (String a : plain) {
            rest.remove(a);
        }
        return rest;
    }

    @Test
    void aioquicTakesTheInteropTestNamesItsExamplesSupportInBothRoles() {
        for (String t : List.of("handshake", "transfer", "multiconnect", "retry", "resumption", "zerortt", "chacha20", "v2")) {
            assertNull(AIOQUIC.unsupported(Role.SERVER, t), t);
            assertNull(AIOQUIC.unsupported(Role.CLIENT, t), t);
        }
        assertNull(AIOQUIC.unsupported(Role.CLIENT, "keyupdate")); // the server of keyupdate is told 'transfer'
    }

    @Test
    void aioquicsUnsupportedCasesNameWhatAioquicLacks() {
        assertTrue(AIOQUIC.unsupported(Role.SERVER, "ecn").contains("neither marks the packets it sends ECT"));
        assertTrue(AIOQUIC.unsupported(Role.CLIENT, "ecn").contains("IP_TOS"));
        assertTrue(AIOQUIC.unsupported(Role.SERVER, "http3").contains("pylsqpack"));
        assertFalse(AIOQUIC.unsupported(Role.CLIENT, "http3").contains("no option"));
    }

    /** connectionmigration is not mapped here: its reason keeps its wording, so the matrix's decided cells stand. */
    @Test
    void unmappedCasesKeepTheirReason() {
        assertEquals("test 'connectionmigration': pacelab's aioquic programs have no option for it (and no HTTP/3: pylsqpack "
                + "is not available offline)", AIOQUIC.unsupported(Role.SERVER, "connectionmigration"));
        assertEquals("test 'connectionmigration': pacelab's quic-go programs have no option for it",
                QUIC_GO.unsupported(Role.SERVER, "connectionmigration"));
    }

    @Test
    void quicGoTakesWhatItsPublicApiAllows() {
        for (String t : List.of("handshake", "transfer", "multiconnect", "http3", "retry", "resumption", "zerortt", "chacha20")) {
            assertNull(QUIC_GO.unsupported(Role.SERVER, t), t);
            assertNull(QUIC_GO.unsupported(Role.CLIENT, t), t);
        }
        String keyUpdate = QUIC_GO.unsupported(Role.CLIENT, "keyupdate");
        assertTrue(keyUpdate.contains("handshake.KeyUpdateInterval") && keyUpdate.contains("internal"), keyUpdate);
        for (Role r : Role.values()) {
            String v2 = QUIC_GO.unsupported(r, "v2");
            assertTrue(v2.contains("0x709a50c4") && v2.contains("0x6b3343cf"), v2);
            assertTrue(QUIC_GO.unsupported(r, "ecn").contains("marks none of the packets it sends ECT"));
        }
    }

    @Test
    void retryMakesBothServersSendARetry() {
        for (ProgramEndpoint e : List.of(AIOQUIC, QUIC_GO)) {
            List<String> plain = e.serverCommand("server", server("transfer"));
            assertEquals(List.of("--retry"), extra(e.serverCommand("server", server("retry")), plain));
            assertFalse(plain.contains("--retry"));
        }
    }

    @Test
    void aioquicsServerKeepsTicketsOnlyForResumptionAndZeroRtt() {
        List<String> plain = AIOQUIC.serverCommand("server", server("transfer"));
        for (String t : List.of("resumption", "zerortt")) {
            assertEquals(List.of("--session-tickets"), extra(AIOQUIC.serverCommand("server", server(t)), plain), t);
            // quic-go's server always issues tickets and accepts 0-RTT (quic.ListenEarly)
            assertEquals(QUIC_GO.serverCommand("server", server("transfer")), QUIC_GO.serverCommand("server", server(t)), t);
        }
    }

    @Test
    void chacha20OffersOnlyChaCha20InEachPeersNames() {
        List<List<String>> a = AIOQUIC.clientCommands("client", client("chacha20"));
        assertEquals(1, a.size());
        assertEquals(List.of("--cipher-suites", "CHACHA20_POLY1305_SHA256"),
                extra(a.getFirst(), AIOQUIC.clientCommands("client", client("transfer")).getFirst()));
        List<List<String>> g = QUIC_GO.clientCommands("client", client("chacha20"));
        assertEquals(List.of("--cipher-suites", "TLS_CHACHA20_POLY1305_SHA256"),
                extra(g.getFirst(), QUIC_GO.clientCommands("client", client("transfer")).getFirst()));
        // quic-go's server as quic-go's interop server; aioquic's has no server-side choice
        assertEquals(List.of("--cipher-suites", "TLS_CHACHA20_POLY1305_SHA256"), extra(QUIC_GO.serverCommand("s", server("chacha20")),
                QUIC_GO.serverCommand("s", server("transfer"))));
        assertEquals(AIOQUIC.serverCommand("s", server("transfer")), AIOQUIC.serverCommand("s", server("chacha20")));
    }

    @Test
    void aioquicsClientUpdatesKeysAndNegotiatesV2WhenTold() {
        List<String> plain = AIOQUIC.clientCommands("client", client("transfer")).getFirst();
        assertEquals(List.of("--key-update"), extra(AIOQUIC.clientCommands("client", client("keyupdate")).getFirst(), plain));
        assertEquals(List.of("--negotiate-v2"), extra(AIOQUIC.clientCommands("client", client("v2")).getFirst(), plain));
        assertEquals(URLS, plain.subList(plain.size() - URLS.size(), plain.size()));
    }

    /** Two processes, the first URL then the rest, sharing the ticket file in the cell's directory; 0-RTT only in the second. */
    @Test
    void aioquicsResumingClientIsTwoProcessesSharingATicketFile() {
        String ticket = DIR.resolve(ProgramEndpoint.AIOQUIC_TICKET).toString();
        for (String t : List.of("resumption", "zerortt")) {
            List<List<String>> steps = AIOQUIC.clientCommands("client", client(t));
            assertEquals(2, steps.size(), t);
            assertEquals(List.of(URLS.getFirst()), steps.get(0).subList(steps.get(0).size() - 1, steps.get(0).size()));
            assertEquals(URLS.subList(1, 3), steps.get(1).subList(steps.get(1).size() - 2, steps.get(1).size()));
            for (List<String> s : steps) {
                int i = s.indexOf("--session-ticket");
                assertTrue(i > 0, s.toString());
                assertEquals(ticket, s.get(i + 1));
            }
            assertFalse(steps.get(0).contains("--zero-rtt"), t);
            assertEquals(t.equals("zerortt"), steps.get(1).contains("--zero-rtt"), t);
        }
    }

    /** Go's session state cannot be written to a file: quic-go's client makes both connections in one process. */
    @Test
    void quicGosResumingClientIsOneProcessWithBothConnections() {
        for (String t : List.of("resumption", "zerortt")) {
            List<List<String>> steps = QUIC_GO.clientCommands("client", client(t));
            assertEquals(1, steps.size(), t);
            List<String> cmd = steps.getFirst();
            assertEquals(URLS, cmd.subList(cmd.size() - URLS.size(), cmd.size()));
            assertEquals(t.equals("zerortt") ? "--zero-rtt" : "--resume", cmd.get(cmd.size() - URLS.size() - 1), t);
            assertFalse(cmd.contains("--session-ticket"), t);
        }
        // multiconnect stays one process per URL
        assertEquals(URLS.size(), QUIC_GO.clientCommands("client", client("multiconnect")).size());
    }
}
