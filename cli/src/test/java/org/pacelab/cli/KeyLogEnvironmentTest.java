package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacelab server} and {@code client} check SSLKEYLOGFILE by the rule of their {@code --keylog} (and of the peer
 * commands': PathChecks.unwritableFile): a key log in a directory that does not exist is one sentence naming the
 * variable, exit code 2, before any socket; before, the directory was created. The environment: child JVMs.
 */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class KeyLogEnvironmentTest {
    @Test
    void sslKeyLogFileInAMissingDirectoryIsRefusedAsKeylogIs(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-dir");
        Map<String, String> env = Map.of("SSLKEYLOGFILE", missing.resolve("keys.log").toString());
        String sentence = "SSLKEYLOGFILE cannot be written: the directory " + missing + " does not exist (create it first)";
        QlogDirEnvironmentTest.assertRefused(dir, env, sentence);
        assertFalse(Files.exists(missing), "the directory is not created");

        // a key log that can be written is opened before connecting, as before
        Path keys = dir.resolve("keys.log");
        CliRun ok = CliRun.inChild(dir, Map.of("SSLKEYLOGFILE", keys.toString()), "client", "--timeout", "1s",
                "https://127.0.0.1:9/x");
        assertEquals(1, ok.code(), ok.err()); // nothing answers: no download finished
        assertTrue(Files.isRegularFile(keys), ok.err());
    }
}
