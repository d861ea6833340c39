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

    @Test
    void theOptionsFileIsReadWithoutCommentsAndEmptyLines() {
        assertEquals(List.of("-Xss4m", "-XX:+UseParallelGC"), Launchers.parseOptions("# a comment\n\n  -Xss4m \n#x\n-XX:+UseParallelGC\n"));
        assertTrue(Launchers.JVM_OPTIONS.containsAll(Launchers.UNLISTED_OPTIONS), Launchers.JVM_OPTIONS.toString());
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
