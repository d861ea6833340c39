package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.kwik.KwikOptions;
import org.pacelab.peers.kwik.KwikServer;
import org.pacelab.quic.content.SyntheticContent;

/**
 * {@code pacelab peer kwik-client}'s session ticket file and key log: a bad ticket file, and a ticket file or
 * SSLKEYLOGFILE in a directory that does not exist, are one sentence and exit code 2 before any connection (no URL
 * here answers: port 9 of the loopback); a ticket Kwik wrote is taken back, and the key log is written.
 */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class KwikClientCommandTest {
    private static final String VALID = "; valid: a ticket file written by an earlier run of pacelab peer kwik-client "
            + "--session-ticket, or a path where none exists yet (the connection then writes one there)";

    private static CliRun kwikClient(Object... args) {
        List<String> a = new java.util.ArrayList<>(List.of("peer", "kwik-client", "--alpn", "hq-interop", "--timeout", "20s"));
        for (Object o : args) {
            a.add(o.toString());
        }
        return CliRun.of(a.toArray(String[]::new));
    }

    private static void assertBadInput(CliRun r, String expected) {
        CliBadInputTest.assertOneSentence(expected, "peer kwik-client", r);
        assertEquals(2, r.code(), r.err());
        assertEquals("pacelab peer kwik-client: " + expected, r.err().strip());
    }

    @Test
    void aBadTicketFileIsOneSentenceNamingTheFileTheCauseAndWhatIsValid(@TempDir Path dir) throws Exception {
        Path empty = Files.write(dir.resolve("empty.ticket"), new byte[0]);
        assertBadInput(kwikClient("--session-ticket", empty, "https://127.0.0.1:9/x"),
                "--session-ticket " + empty + " is not a Kwik session ticket: the file is empty" + VALID);

        Path text = Files.writeString(dir.resolve("text.ticket"), "not a ticket\n");
        assertBadInput(kwikClient("--session-ticket", text, "https://127.0.0.1:9/x"),
                "--session-ticket " + text + " is not a Kwik session ticket: it is 13 bytes, shorter than the 111 of a "
                        + "ticket's fixed fields alone" + VALID);

        // Kwik itself would allocate 2 GiB for this length and run out of memory
        byte[] huge = new byte[300];
        ByteBuffer.wrap(huge).putInt(0x7fff_fff0);
        Path garbled = Files.write(dir.resolve("garbled.ticket"), huge);
        assertBadInput(kwikClient("--zero-rtt", "--session-ticket", garbled, "https://127.0.0.1:9/x"),
                "--session-ticket " + garbled + " is not a Kwik session ticket: its TLS ticket length 2147483632 does not "
                        + "match the file's 300 bytes (it would be 227)" + VALID);
    }

    @Test
    void aTicketFileOrKeyLogInAMissingDirectoryIsRefusedBeforeConnecting(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-dir");
        assertBadInput(kwikClient("--session-ticket", missing.resolve("t.ticket"), "https://127.0.0.1:9/x"),
                "--session-ticket: the directory " + missing + " does not exist (create it first)");
        assertBadInput(kwikClient("--session-ticket", dir, "https://127.0.0.1:9/x"),
                "--session-ticket: " + dir + " is a directory; give a file name");
        // SSLKEYLOGFILE comes from the environment: a child JVM
        CliRun r = CliRun.inChild(dir, Map.of("SSLKEYLOGFILE", missing.resolve("keys.log").toString()), "peer", "kwik-client",
                "--timeout", "20s", "https://127.0.0.1:9/x");
        assertBadInput(r, "SSLKEYLOGFILE cannot be written: the directory " + missing + " does not exist (create it first)");
    }

    /** The ticket Kwik's client wrote passes the check and resumes; the key log has both connections' keys. */
    @Test
    void theTicketKwikWroteIsTakenBackAndTheKeyLogIsWritten(@TempDir Path dir) throws Exception {
        Path ticket = dir.resolve("session.ticket");
        Path keys = dir.resolve("keys.log");
        try (KwikServer server = KwikServer.start(new InetSocketAddress("127.0.0.1", 0), KwikOptions.defaults(),
                Certificates.selfSigned(List.of("localhost")), SyntheticContent.only(), r -> {})) {
            String url = "https://127.0.0.1:" + server.localAddress().getPort() + "/bytes/1000";
            CliRun first = kwikClient("-k", "--keylog", keys, "--session-ticket", ticket, url);
            assertEquals(0, first.code(), first.err());
            assertTrue(Files.size(ticket) > 0, "no ticket written");
            CliRun second = kwikClient("-k", "--keylog", keys, "--session-ticket", ticket, "--zero-rtt", url);
            assertEquals(0, second.code(), second.err());
            assertFalse(second.err().contains("warning"), second.err());
        }
        List<String> lines = Files.readAllLines(keys);
        assertEquals(2, lines.stream().filter(l -> l.startsWith("CLIENT_TRAFFIC_SECRET_0 ")).count(), "key log: " + lines);
    }
}
