package org.pacelab.lab.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The non-root PATH bug: a login shell's PATH without the sbin directories, where Debian puts gtlsserver. The host
 * finds such programs, and a command started by the path it found runs, where the bare name does not.
 */
class HostTest {
    @TempDir
    Path tmp;

    private Path program(Path dir, String name, String body) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void programsInTheSystemDirectoriesAreFoundAndStartedByTheirPath() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path sbin = tmp.resolve("sbin");
        String name = "pl-fake-server-" + ProcessHandle.current().pid();
        Path marker = tmp.resolve("ran");
        Path fake = program(sbin, name, "echo \"$1\" > '" + marker + "'");
        // this process's PATH does not hold the temporary sbin directory, as a login shell's PATH lacks /usr/sbin
        assertTrue(Host.pathOfThisProcess().stream().noneMatch(sbin::equals));
        Host host = new Host(List.of(bin), List.of(sbin));
        assertEquals(Optional.of(fake), host.which(name));

        IOException bare = assertThrows(IOException.class, () -> new ProcessBuilder(name, "x").start());
        assertTrue(bare.getMessage().contains("Cannot run program"), bare.getMessage());

        List<String> resolved = host.resolve(List.of(name, "started"));
        assertEquals(List.of(fake.toString(), "started"), resolved);
        Process p = new ProcessBuilder(resolved).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        assertEquals("started", Files.readString(marker).strip());
    }

    @Test
    void aProgramGivenAsAPathIsKeptAndAMissingOneIsOneSentence() throws Exception {
        Host host = new Host(List.of(tmp), List.of());
        assertEquals(List.of("/opt/x/prog", "-v"), host.resolve(List.of("/opt/x/prog", "-v")));
        IOException e = assertThrows(IOException.class, () -> host.resolve(List.of("pl-no-such-program", "-v")));
        assertEquals("pl-no-such-program is not installed here (not on PATH)", e.getMessage());
        Host withSbin = new Host(List.of(tmp), Host.SYSTEM_DIRS);
        IOException e2 = assertThrows(IOException.class, () -> withSbin.resolve(List.of("pl-no-such-program")));
        assertEquals("pl-no-such-program is not installed here (not on PATH nor in /usr/local/sbin, /usr/sbin, /sbin)", e2.getMessage());
    }

    @Test
    void whatWasFoundIsForgottenAfterInstalling() throws Exception {
        Path sbin = Files.createDirectories(tmp.resolve("sbin"));
        Host host = new Host(List.of(), List.of(sbin));
        assertTrue(host.which("pl-later").isEmpty());
        Path p = program(sbin, "pl-later", "exit 0");
        assertTrue(host.which("pl-later").isEmpty(), "answers are remembered");
        host.forgetInstalled();
        assertEquals(Optional.of(p), host.which("pl-later"));
    }
}
