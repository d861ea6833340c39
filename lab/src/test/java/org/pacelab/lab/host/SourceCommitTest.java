package org.pacelab.lab.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.peers.build.Commands;

/**
 * The commit a result names is the one the build recorded ({@code scripts/build-commit.sh} through Maven's filtering
 * into {@code build-commit.properties}), not the checkout's HEAD when the result is written; the script marks changed
 * sources of the jar with {@code +dirty}, not changed documents or tests.
 */
class SourceCommitTest {
    private static final Path SCRIPT = Path.of("..", "scripts", "build-commit.sh").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theRecordedLineIsTheCommitAndAMissingOrUnfilledOneSaysWhy() {
        assertEquals("abc1234", SourceCommit.parse("# comment\ncommit=abc1234\n"));
        assertEquals("abc1234+dirty", SourceCommit.parse("commit=abc1234+dirty\n"));
        assertEquals("unknown (built without ./pacelab, which records the commit)",
                SourceCommit.parse("commit=unknown (built without ./pacelab, which records the commit)\n"));
        assertEquals("unknown (build-commit.properties names no commit)", SourceCommit.parse("# nothing\n"));
        assertEquals("unknown (build-commit.properties was copied without Maven's filtering, which fills in the commit)",
                SourceCommit.parse("commit=${pacelab.build.commit}\n"));
    }

    @Test
    void theBuildFilledInTheResource() {
        assertNotNull(SourceCommit.class.getResource(SourceCommit.RESOURCE), "the build put " + SourceCommit.RESOURCE + " beside the class");
        String commit = SourceCommit.ofThisBuild();
        // ./pacelab's builds pass -Dpacelab.build.commit; a plain Maven build (as for these tests) gets the pom's sentence
        assertTrue(commit.matches("[0-9a-f]{7,40}(\\+dirty)?|unknown \\(.+\\)") && !commit.contains("${"), commit);
    }

    @Test
    void theScriptMarksChangedSourcesButNotDocumentsOrTests(@TempDir Path plain) throws Exception {
        git("init", "-q");
        Files.createDirectories(dir.resolve("lab/src/main/java"));
        Files.createDirectories(dir.resolve("lab/src/test/java"));
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(dir.resolve("lab/src/main/java/A.java"), "class A {}\n");
        Files.writeString(dir.resolve("pom.xml"), "<project/>\n");
        Files.writeString(dir.resolve("docs/interop.md"), "# matrix\n");
        git("add", ".");
        git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "first");
        String head = git("rev-parse", "--short=7", "HEAD");
        assertEquals(head, script());

        Files.writeString(dir.resolve("docs/interop.md"), "# matrix, regenerated\n");
        Files.writeString(dir.resolve("lab/src/test/java/T.java"), "class T {}\n");
        assertEquals(head, script(), "documents and tests are not in the jar");

        Files.writeString(dir.resolve("lab/src/main/java/B.java"), "class B {}\n");
        assertEquals(head + "+dirty", script(), "an untracked source is compiled into the jar");
        Files.delete(dir.resolve("lab/src/main/java/B.java"));
        Files.writeString(dir.resolve("pom.xml"), "<project><!-- changed --></project>\n");
        assertEquals(head + "+dirty", script());
        git("checkout", "-q", "pom.xml");
        assertEquals(head, script());

        assertEquals("unknown (" + plain + " is not a git checkout with a commit)",
                Commands.run(List.of("sh", SCRIPT.toString(), plain.toString()), null, 30).output());
    }

    private String script() {
        Commands.Result r = Commands.run(List.of("sh", SCRIPT.toString(), dir.toString()), null, 30);
        assertEquals(0, r.exit(), r.output());
        return r.output();
    }

    private String git(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Commands.Result r = Commands.run(cmd, null, 30);
        assertEquals(0, r.exit(), String.join(" ", cmd) + ": " + r.output());
        return r.output().strip();
    }
}
