package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacelab peer quiche-client} and {@code quiche-server}'s key log and qlog directory, given as options
 * ({@code --keylog}, {@code --qlog-dir}) or in the environment (SSLKEYLOGFILE, QLOGDIR): one that cannot be written is
 * one sentence naming the option or variable, exit code 2, before any connection or socket (the rule of
 * {@link PathChecks}, as {@code peer kwik-client}'s). Before, the key log's missing directory was created, and a
 * directory or a file in the way ended the command with exit code 1 and a bare path ("/x: Is a directory").
 * No URL here answers (port 9 of the loopback).
 */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class QuichePeerCommandsTest {
    private static final String URL = "https://127.0.0.1:9/x";

    private static void assertBadInput(CliRun r, String command, String expected) {
        CliBadInputTest.assertOneSentence(expected, "peer " + command, r);
        assertEquals(2, r.code(), r.err());
        assertEquals("pacelab peer " + command + ": " + expected, r.err().strip());
    }

    @Test
    void aKeyLogOrQlogDirectoryThatCannotBeWrittenIsRefusedBeforeConnecting(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-dir");
        Path file = Files.writeString(dir.resolve("file.txt"), "x");
        for (String command : new String[] {"quiche-client", "quiche-server"}) {
            String[] where = command.equals("quiche-client") ? new String[] {"--timeout", "20s", URL}
                    : new String[] {"--listen", "127.0.0.1:0"};
            assertBadInput(run(command, where, "--keylog", missing.resolve("keys.log")), command,
                    "--keylog: the directory " + missing + " does not exist (create it first)");
            assertBadInput(run(command, where, "--keylog", dir), command, "--keylog: " + dir + " is a directory; give a file name");
            assertBadInput(run(command, where, "--qlog-dir", file.resolve("q")), command,
                    "--qlog-dir: cannot create " + file.resolve("q") + ": " + file + " is a file, not a directory");
        }
        assertFalse(Files.exists(missing), "nothing created");
    }

    @Test
    void sslKeyLogFileAndQlogDirAreCheckedAsTheOptionsAre(@TempDir Path dir) throws Exception {
        // the environment: a child JVM
        Path missing = dir.resolve("no-such-dir");
        Path file = Files.writeString(dir.resolve("file.txt"), "x");
        CliRun client = CliRun.inChild(dir, Map.of("SSLKEYLOGFILE", missing.resolve("keys.log").toString()), "peer",
                "quiche-client", "--timeout", "20s", URL);
        assertBadInput(client, "quiche-client",
                "SSLKEYLOGFILE cannot be written: the directory " + missing + " does not exist (create it first)");
        assertFalse(Files.exists(missing), "the key log's directory is not created");

        CliRun server = CliRun.inChild(dir, Map.of("SSLKEYLOGFILE", dir.toString()), "peer", "quiche-server", "--listen",
                "127.0.0.1:0");
        assertBadInput(server, "quiche-server", "SSLKEYLOGFILE cannot be written: " + dir + " is a directory; give a file name");

        CliRun qlog = CliRun.inChild(dir, Map.of("QLOGDIR", file.resolve("q").toString()), "peer", "quiche-server",
                "--listen", "127.0.0.1:0");
        assertBadInput(qlog, "quiche-server",
                "QLOGDIR cannot be used: cannot create " + file.resolve("q") + ": " + file + " is a file, not a directory");
    }

    private static CliRun run(String command, String[] where, String option, Path value) {
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("peer", command, option, value.toString()));
        a.addAll(java.util.List.of(where));
        return CliRun.of(a.toArray(String[]::new));
    }
}
