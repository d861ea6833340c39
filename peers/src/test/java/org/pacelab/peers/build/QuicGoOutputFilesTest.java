package org.pacelab.peers.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.io.tls.Certificates;
import org.pacelab.peers.Interop;

/**
 * pacelab's quic-go programs check the files they write before any connection, by the rule and with the sentences of
 * pacelab's own commands (cli's PathChecks): {@code --keylog} and the client's {@code --json} as files,
 * {@code --qlog-dir} and the client's {@code --output} as directories (created when missing); one line, exit code 2.
 * Before, the client log was found unwritable after the transfer (exit 1), a qlog directory that did not exist lost
 * the qlog with exit code 0, and a missing {@code --output} failed each download. The programs are this commit's,
 * compiled into a temporary peer cache as {@code pacelab peers install quic-go} does; no URL here answers.
 */
@Tag("interop")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class QuicGoOutputFilesTest {
    private static final String URL = "https://127.0.0.1:9/x";

    @TempDir
    Path dir;

    @Test
    void aFileOrDirectoryThatCannotBeWrittenIsOneSentenceBeforeConnecting() throws Exception {
        Interop.requireTool("go", "golang-go");
        Interop.require(Files.isDirectory(Path.of("/usr/share/gocode/src/github.com/lucas-clemente/quic-go")),
                "Debian's quic-go 0.29 is not installed (golang-github-lucas-clemente-quic-go-dev)");
        PeerCache cache = new PeerCache(dir.resolve("cache"));
        PeerBuilder builder = new PeerBuilder(cache, new PeerSources(List.of(), null, Programs.ofThisProcess()),
                Programs.ofThisProcess(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        InstalledBuild b = builder.install(new QuicGoBuild(), false).build();
        Path client = b.file(QuicGoBuild.CLIENT);
        Path server = b.file(QuicGoBuild.SERVER);

        Path missing = dir.resolve("no-such-dir");
        Path file = Files.writeString(dir.resolve("file.txt"), "x");
        for (String option : List.of("--keylog", "--json")) {
            assertRefused("quic-go-client: " + option + ": the directory " + missing + " does not exist (create it first)",
                    client, option, missing.resolve("f").toString(), URL);
            assertRefused("quic-go-client: " + option + ": " + dir + " is a directory; give a file name", client, option,
                    dir.toString(), URL);
            assertRefused("quic-go-client: " + option + ": " + file + " is not a directory", client, option,
                    file.resolve("f").toString(), URL);
        }
        for (String option : List.of("--qlog-dir", "--output")) {
            assertRefused("quic-go-client: " + option + ": cannot create " + file.resolve("q") + ": " + file
                    + " is a file, not a directory", client, option, file.resolve("q").toString(), URL);
            assertRefused("quic-go-client: " + option + ": " + file + " is a file, not a directory", client, option,
                    file.toString(), URL);
        }
        assertFalse(Files.exists(missing), "nothing created");

        Certificates.Identity id = Certificates.selfSigned(List.of("localhost"));
        Path cert = Files.writeString(dir.resolve("cert.pem"), Certificates.toPem(id.leaf()), StandardCharsets.US_ASCII);
        Path key = Files.writeString(dir.resolve("priv.key"), Certificates.toPem(id.key()), StandardCharsets.US_ASCII);
        String[] serve = {"--listen", "127.0.0.1:0", "--root", dir.toString(), "--cert", cert.toString(), "--key", key.toString()};
        assertRefused("quic-go-server: --keylog: the directory " + missing + " does not exist (create it first)", server,
                concat(serve, "--keylog", missing.resolve("keys.log").toString()));
        assertRefused("quic-go-server: --qlog-dir: cannot create " + file.resolve("q") + ": " + file + " is a file, not a directory",
                server, concat(serve, "--qlog-dir", file.resolve("q").toString()));

        // a qlog directory that does not exist is created (as pacelab's --qlog-dir): the client only fails to connect
        Path qlogs = dir.resolve("new/qlog");
        Result r = run(client, "--timeout", "1s", "--qlog-dir", qlogs.toString(), URL);
        assertTrue(Files.isDirectory(qlogs), r.err());
        assertFalse(r.err().contains("--qlog-dir"), r.err());
    }

    private static String[] concat(String[] a, String... b) {
        List<String> l = new ArrayList<>(List.of(a));
        l.addAll(List.of(b));
        return l.toArray(String[]::new);
    }

    private record Result(int exit, String err) {}

    private static Result run(Path program, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(program.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + ": still running after 60 s");
        }
        return new Result(p.exitValue(), err);
    }

    private static void assertRefused(String line, Path program, String... args) throws Exception {
        Result r = run(program, args);
        assertEquals(line, r.err().strip(), String.join(" ", args));
        assertEquals(2, r.exit(), r.err());
    }
}
