package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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

    /** The ./pacelab launcher reads the same file from the sources (this test runs in cli/). */
    @Test
    void theShellLauncherReadsTheSameFile() throws IOException {
        Path script = Path.of("..", "pacelab");
        assertTrue(Files.readString(script).contains("cli/src/main/resources/" + Launchers.OPTIONS_RESOURCE));
        assertEquals(Launchers.JVM_OPTIONS, Launchers.parseOptions(
                Files.readString(Path.of("src/main/resources", Launchers.OPTIONS_RESOURCE))));
    }
}
