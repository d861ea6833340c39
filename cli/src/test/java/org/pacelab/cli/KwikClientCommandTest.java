package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacelab peer kwik-client}'s session ticket file and key log: a ticket file or SSLKEYLOGFILE in a directory
 * that does not exist is one sentence and exit code 2 before any connection (no URL here answers: port 9 of the loopback).
 */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class KwikClientCommandTest {
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
}
