package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacelab server} and {@code client} check QLOGDIR by the rule of their {@code --qlog-dir} (and of the endpoint
 * and quiche commands': PathChecks.unwritableDirectory): a QLOGDIR that cannot be used is one sentence naming the
 * variable, "QLOGDIR cannot be used: ...", exit code 2, before any socket; before, a read-only directory was accepted
 * and each connection then failed to create its qlog file. The environment: child JVMs.
 */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class QlogDirEnvironmentTest {
    /** Both {@code client} and {@code server}, started with {@code env}, end in exactly {@code sentence}, exit code 2. */
    static void assertRefused(Path dir, Map<String, String> env, String sentence) throws Exception {
        CliRun client = CliRun.inChild(dir, env, "client", "--timeout", "5s", "https://127.0.0.1:9/x");
        CliBadInputTest.assertOneSentence("client", "client", client);
        assertEquals(2, client.code(), client.err());
        assertEquals("pacelab client: " + sentence, client.err().strip());
        CliRun server = CliRun.inChild(dir, env, "server", "--listen", "127.0.0.1:0");
        CliBadInputTest.assertOneSentence("server", "server", server);
        assertEquals(2, server.code(), server.err());
        assertEquals("pacelab server: " + sentence, server.err().strip());
    }

    @Test
    void aQlogDirThatIsAFileIsRefusedInOneSentence(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertRefused(dir, Map.of("QLOGDIR", file.toString()), "QLOGDIR cannot be used: " + file + " is a file, not a directory");
        Path below = file.resolve("qlogs");
        assertRefused(dir, Map.of("QLOGDIR", below.toString()),
                "QLOGDIR cannot be used: cannot create " + below + ": " + file + " is a file, not a directory");

        // a usable QLOGDIR is still created when missing, before connecting, as before
        Path qlogs = dir.resolve("new").resolve("qlogs");
        CliRun ok = CliRun.inChild(dir, Map.of("QLOGDIR", qlogs.toString()), "client", "--timeout", "1s",
                "https://127.0.0.1:9/x");
        assertEquals(1, ok.code(), ok.err()); // nothing answers: no download finished
        assertTrue(Files.isDirectory(qlogs), ok.err());
    }

    @Test
    void aReadOnlyQlogDirIsRefusedAtStartupAsQlogDirOptionIs(@TempDir Path dir) throws Exception {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root writes into every directory");
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assertRefused(dir, Map.of("QLOGDIR", readOnly.toString()),
                    "QLOGDIR cannot be used: the directory " + readOnly + " is not writable");
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
