package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JVM options every pacelab JVM runs with ({@code jvm-options}), and another build's. */
class LaunchersTest {
    @TempDir
    Path dir;

    /**
     * A file with what an editor may leave in it: a byte order mark, CRLF and lone-CR line ends, indented comments
     * (spaces, tabs), trailing blanks (spaces, tabs, vertical tab, form feed), blank lines of blanks, no final newline;
     * and options with inner spaces, a '#' inside, glob, quote, backslash and '$' characters, which are kept as they are.
     * A Unicode space (U+2003) is no blank of the rule: kept as it is.
     */
    private static final String EDITED = "\uFEFF# a comment after a byte order mark\r\n"
            + "  # an indented comment\r\n"
            + "\t# a tab-indented comment\n"
            + "\r\n"
            + "   \t \r\n"
            + "\n"
            + "  -Xss4m \t\r\n"
            + "-XX:+UseParallelGC\u000B\f\n"
            + "#-XX:+UseSerialGC\n"
            + "#\n"
            + "-Dpacelab.a=one two\r"
            + "-Dpacelab.b=x#y*?[a] 'q' \"d\" \\n $HOME\r\n"
            + "-Dpacelab.c=em\u2003\n"
            + "\t-XX:CompileCommand=quiet";
    private static final List<String> EDITED_OPTIONS = List.of("-Xss4m", "-XX:+UseParallelGC", "-Dpacelab.a=one two",
            "-Dpacelab.b=x#y*?[a] 'q' \"d\" \\n $HOME", "-Dpacelab.c=em\u2003", "-XX:CompileCommand=quiet");

    @Test
    void theOptionsFileIsReadTrimmedWithoutCommentsAndBlankLines() {
        assertEquals(List.of("-Xss4m", "-XX:+UseParallelGC"), Launchers.parseOptions("# a comment\n\n  -Xss4m \n#x\n-XX:+UseParallelGC\n"));
        assertEquals(EDITED_OPTIONS, Launchers.parseOptions(EDITED));
        assertEquals(List.of("-Xss4m"), Launchers.parseOptions("  # indented\n-Xss4m  \n"));
        assertEquals(List.of("-Xss4m", "-Xmx1g"), Launchers.parseOptions("-Xss4m\r\n-Xmx1g\r\n"));
        assertEquals(List.of("-Xss4m", "-Xmx1g"), Launchers.parseOptions("\n \n\t\n-Xss4m\n\r\n\n-Xmx1g"));
        assertEquals(List.of(), Launchers.parseOptions(""));
        assertEquals(List.of(), Launchers.parseOptions("\uFEFF# only\r\n  \r\n"));
        assertTrue(Launchers.JVM_OPTIONS.containsAll(Launchers.UNLISTED_OPTIONS), Launchers.JVM_OPTIONS.toString());
        for (String o : Launchers.JVM_OPTIONS) {
            assertTrue(o.startsWith("-") && o.equals(o.strip()), o);
        }
    }

    /** A dontinline of a method that no longer exists would be silently ignored by the JVM (the commands are quiet). */
    @Test
    void everyCompileCommandNamesAMethodOfThisBuild() throws Exception {
        List<String> commands = Launchers.JVM_OPTIONS.stream().filter(o -> o.startsWith("-XX:CompileCommand=dontinline,")).toList();
        assertFalse(commands.isEmpty());
        for (String c : commands) {
            String target = c.substring("-XX:CompileCommand=dontinline,".length());
            String[] parts = target.split("::");
            assertEquals(2, parts.length, c);
            Class<?> type = Class.forName(parts[0]);
            assertTrue(Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(parts[1])), c);
        }
    }

    @Test
    void anotherBuildsJarRunsWithItsOwnOptionsOrTheOldOnes() throws IOException {
        Path listed = dir.resolve("listed.jar");
        try (var out = new JarOutputStream(Files.newOutputStream(listed))) {
            out.putNextEntry(new JarEntry(Launchers.OPTIONS_RESOURCE));
            out.write("# x\n-Xss8m\n-XX:+UseSerialGC\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(List.of("-Xss8m", "-XX:+UseSerialGC"), Launchers.jvmOptionsOf(listed));
        List<String> command = Launchers.forClassPath(listed.toString()).command(List.of("client", "https://x/"));
        assertEquals(List.of("-Xss8m", "-XX:+UseSerialGC", "-cp"), command.subList(1, 4));

        Path unlisted = dir.resolve("unlisted.jar");
        try (var out = new JarOutputStream(Files.newOutputStream(unlisted))) {
            out.putNextEntry(new JarEntry("p/Hello.class"));
            out.write(new byte[] {1});
        }
        assertEquals(Launchers.UNLISTED_OPTIONS, Launchers.jvmOptionsOf(unlisted));
    }

    /**
     * The ./pacelab launcher and scripts/bench-slurm.sh read the same file from the sources, through the shared bash
     * function of scripts/jvm-options.sh (this test runs in cli/).
     */
    @Test
    void theShellScriptsReadTheSameFileThroughTheSharedFunction() throws IOException {
        String call = "pacelab_jvm_options \"$here/cli/src/main/resources/" + Launchers.OPTIONS_RESOURCE + "\" || exit 2";
        for (Path script : List.of(Path.of("..", "pacelab"), Path.of("..", "scripts", "bench-slurm.sh"))) {
            String text = Files.readString(script);
            assertTrue(text.contains("source \"$here/scripts/jvm-options.sh\""), script.toString());
            assertTrue(text.contains(call), script.toString());
            assertEquals(1, text.split("jvm-options\"", -1).length - 1, script + " reads the file once, through the function");
            assertFalse(text.contains("grep -v -e '^#'"), script.toString());
        }
        assertEquals(Launchers.JVM_OPTIONS, Launchers.parseOptions(
                Files.readString(Path.of("src/main/resources", Launchers.OPTIONS_RESOURCE))));
    }

    /** The bash reader yields the list Launchers.parseOptions yields: on an edited file and on the real one. */
    @Test
    void theBashFunctionYieldsTheListOfParseOptions() throws Exception {
        Path edited = dir.resolve("edited-jvm-options");
        Files.writeString(edited, EDITED, StandardCharsets.UTF_8);
        Bash r = bashOptions(edited);
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        assertEquals(EDITED_OPTIONS, r.options());
        assertEquals(Launchers.parseOptions(Files.readString(edited, StandardCharsets.UTF_8)), r.options());

        Path own = Path.of("src/main/resources", Launchers.OPTIONS_RESOURCE);
        Bash real = bashOptions(own);
        assertEquals(0, real.exit(), real.err());
        assertEquals(Launchers.JVM_OPTIONS, real.options());

        Path empty = dir.resolve("empty");
        Files.writeString(empty, "# nothing\r\n\n");
        assertEquals(List.of(), bashOptions(empty).options());
        assertEquals(Launchers.parseOptions("# nothing\r\n\n"), bashOptions(empty).options());
    }

    /** A missing file, or a directory in its place: one sentence naming the file and the cause, exit 2, no options. */
    @Test
    void theBashFunctionRefusesAMissingFileInOneSentence() throws Exception {
        Path missing = dir.resolve("no-such-jvm-options");
        Bash r = bashOptions(missing);
        assertEquals(2, r.exit());
        assertEquals(List.of(), r.options());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(missing.toString()) && r.err().contains("does not exist")
                && r.err().contains("one per line"), r.err());

        Bash d = bashOptions(dir);
        assertEquals(2, d.exit());
        assertTrue(d.err().contains(dir.toString()) && d.err().contains("not a regular file"), d.err());
        assertEquals(1, d.err().strip().lines().count(), d.err());
    }

    /**
     * scripts/aot-train.sh: a training a signal stopped (exit status above 128, as a kill of the JVM gives) is not the
     * build's attempt, so the next command trains again; a finished one, with or without caches, is, and is not run
     * again for that jar. Before, a killed training left every later command of the build without a cache.
     */
    @Test
    void aTrainingStoppedByASignalIsTriedAgainAndAFinishedOneIsNot() throws Exception {
        Path aot = dir.resolve("aot");
        Path jar = Files.writeString(dir.resolve("pacelab.jar"), "a build");
        Path runs = dir.resolve("runs");
        String count = "echo run >> '" + runs + "'";

        assertEquals(0, train(aot, jar, count + "; kill -TERM $$"));
        assertFalse(Files.exists(aot.resolve(".trained")), "a training stopped by SIGTERM is not the build's attempt");
        assertEquals(0, train(aot, jar, count + "; exit 1"));
        assertTrue(Files.exists(aot.resolve(".trained")), "a training that finished without caches is the attempt");
        assertEquals(0, train(aot, jar, count));
        assertEquals(2, Files.readAllLines(runs).size(), "tried again after the signal, not after the failure");
    }

    /** Sources scripts/aot-train.sh and trains with {@code bash -c script} as the training command; the exit status. */
    private int train(Path aot, Path jar, String script) throws IOException, InterruptedException {
        Path lib = Path.of("..", "scripts", "aot-train.sh").toAbsolutePath().normalize();
        Process p = new ProcessBuilder("bash", "-c", "source \"$1\" || exit 9; pacelab_train_aot \"$2\" \"$3\" bash -c \"$4\"",
                "aot-train-test", lib.toString(), aot.toString(), jar.toString(), script)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("bash did not finish the training function within 60 s");
        }
        return p.exitValue();
    }

    private record Bash(int exit, List<String> options, String err) {}

    /** Sources scripts/jvm-options.sh in bash and runs its function on {@code file}; the options come back NUL-separated. */
    private Bash bashOptions(Path file) throws IOException, InterruptedException {
        Path lib = Path.of("..", "scripts", "jvm-options.sh").toAbsolutePath().normalize();
        Path out = Files.createTempFile(dir, "bash", ".out");
        Path err = Files.createTempFile(dir, "bash", ".err");
        Process p = new ProcessBuilder("bash", "-c",
                "source \"$1\" || exit 9; pacelab_jvm_options \"$2\" || exit $?; "
                        + "if (( ${#PACELAB_JVM_OPTIONS[@]} )); then printf '%s\\0' \"${PACELAB_JVM_OPTIONS[@]}\"; fi",
                "jvm-options-test", lib.toString(), file.toAbsolutePath().toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("bash did not finish the jvm-options function within 60 s");
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        List<String> options = text.isEmpty() ? List.of() : List.of(text.substring(0, text.length() - 1).split("\0", -1));
        return new Bash(p.exitValue(), options, Files.readString(err, StandardCharsets.UTF_8));
    }
}
