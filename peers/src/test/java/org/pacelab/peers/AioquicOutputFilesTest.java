package org.pacelab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.build.AioquicBuild;
import org.pacelab.peers.build.InstalledBuild;

/**
 * pacelab's aioquic program checks the files it writes ({@code --keylog}, the client's {@code --json} and
 * {@code --session-ticket}) before any connection, by the rule and with the sentences of pacelab's own commands
 * (cli's PathChecks.unwritableFile): one line, exit code 2. Before, a key log in a missing directory was a Python
 * traceback, the client log one after the transfer, and the session ticket a traceback inside the connection, a 5 s
 * wait and exit code 0 with no ticket written. The program is the one in these sources (not the installed build's
 * copy, which is as old as the build), run with the installed build's Python and libraries; no URL here answers.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AioquicOutputFilesTest {
    private static final String URL = "https://127.0.0.1:9/x";

    @TempDir
    Path dir;
    private InstalledBuild build;
    private Path program;

    @BeforeEach
    void program() throws Exception {
        build = BuiltPeers.require(new AioquicBuild(), AioquicBuild.CLIENT);
        program = dir.resolve("pacelab_aioquic.py");
        try (InputStream in = AioquicBuild.class.getResourceAsStream("/org/pacelab/peers/aioquic/pacelab_aioquic.py")) {
            Files.copy(in, program);
        }
    }

    @Test
    void aFileThatCannotBeWrittenIsOneSentenceBeforeConnecting() throws Exception {
        Path missing = dir.resolve("no-such-dir");
        Path file = Files.writeString(dir.resolve("file.txt"), "x");
        for (String option : List.of("--keylog", "--json", "--session-ticket")) {
            assertRefused(option + ": the directory " + missing + " does not exist (create it first)", "client", option,
                    missing.resolve("f").toString(), URL);
            assertRefused(option + ": " + dir + " is a directory; give a file name", "client", option, dir.toString(), URL);
            assertRefused(option + ": " + file + " is not a directory", "client", option, file.resolve("f").toString(), URL);
        }
        assertRefused("--keylog: the directory " + missing + " does not exist (create it first)", "server", "--listen",
                "127.0.0.1:0", "--root", dir.toString(), "--cert", file.toString(), "--key", file.toString(), "--keylog",
                missing.resolve("keys.log").toString());
        assertFalse(Files.exists(missing), "nothing created");
    }

    private void assertRefused(String sentence, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(build.get("python"), "-s", program.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PYTHONPATH", build.file("lib").toString());
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", args) + ": still running after 60 s");
        }
        assertEquals("pacelab_aioquic: " + sentence, err.strip(), String.join(" ", args));
        assertEquals(2, p.exitValue(), err);
    }
}
