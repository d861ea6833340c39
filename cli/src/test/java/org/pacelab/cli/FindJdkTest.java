package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's JDK version check (scripts/find-jdk.sh, sourced by ./pacelab and ./run-tests): the feature version
 * comes from the JDK's release file without starting the JVM, and from the JVM's own properties only when the
 * release file is missing or unreadable. The fake JDKs' java binaries record being started.
 */
class FindJdkTest {
    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("scripts/find-jdk.sh");

    /** A fake JDK: bin/java prints {@code specVersion} as the JVM would and touches {@code started}; release optional. */
    private static Path jdk(Path dir, String release, String specVersion) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\ntouch \"" + dir.resolve("started") + "\"\n"
                + "echo '    java.specification.version = " + specVersion + "' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (release != null) {
            Files.writeString(dir.resolve("release"), release);
        }
        return java;
    }

    private static String major(Path java) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(SCRIPT), SCRIPT.toString());
        Process p = new ProcessBuilder(List.of("bash", "-c", "source \"$0\"; pacelab_java_major \"$1\"", SCRIPT.toString(),
                java.toString())).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "find-jdk.sh did not end");
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    @Test
    void theReleaseFileGivesTheVersionWithoutStartingTheJvm(@TempDir Path dir) throws Exception {
        String[][] cases = {
                {"IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\nJAVA_VERSION_DATE=\"2026-04-21\"\n", "25"},
                {"JAVA_VERSION=\"17.0.15\"\n", "17"},
                {"JAVA_VERSION=\"26-ea\"\n", "26"},
                {"JAVA_VERSION=\"1.8.0_432\"\n", "8"},
        };
        for (int i = 0; i < cases.length; i++) {
            Path home = dir.resolve("jdk" + i);
            assertEquals(cases[i][1], major(jdk(home, cases[i][0], "99")), cases[i][0]);
            assertTrue(Files.notExists(home.resolve("started")), "the JVM was started for " + cases[i][0]);
        }
    }

    @Test
    void withoutAReadableReleaseFileTheJvmIsAsked(@TempDir Path dir) throws Exception {
        Path none = dir.resolve("none");
        assertEquals("25", major(jdk(none, null, "25")));
        assertTrue(Files.exists(none.resolve("started")));
        Path garbled = dir.resolve("garbled");
        assertEquals("21", major(jdk(garbled, "JAVA_VERSION=unknown\n", "21")));
        assertTrue(Files.exists(garbled.resolve("started")));
        Path old = dir.resolve("old");
        assertEquals("8", major(jdk(old, null, "1.8")));
    }
}
