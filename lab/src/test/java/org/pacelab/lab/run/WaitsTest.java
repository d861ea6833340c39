package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Waiting for a client while the emulator and the server must stay up. */
class WaitsTest {
    private static final long TIMEOUT_NS = 120_000_000_000L;

    @TempDir
    Path tmp;
    private ProcessSupervisor supervisor;

    @BeforeEach
    void supervisor() {
        supervisor = new ProcessSupervisor(tmp.resolve(".children"));
    }

    @AfterEach
    void stopAll() {
        supervisor.stopAll(2_000);
    }

    private ChildProcess start(String name, String script) throws Exception {
        return supervisor.start(name, List.of("sh", "-c", script), Map.of(), tmp, tmp.resolve(name + ".out"), tmp.resolve(name + ".err"));
    }

    @Test
    void anEmulatorThatExitsFailsTheWaitAtOnceWithItsLastErrorLine() throws Exception {
        ChildProcess client = start("client", "exec sleep 300");
        ChildProcess server = start("server", "exec sleep 300");
        ChildProcess emulator = start("emulator", "echo 'tap: 1200 packets' >&2; echo 'pacelab netns up: No space left on device' >&2; exit 1");
        List<Waits.Watched> watched = List.of(new Waits.Watched("the emulator", emulator), new Waits.Watched("server x", server));
        RunFailedException e = assertThrows(RunFailedException.class, () -> Waits.exit(client, TIMEOUT_NS, watched));
        assertEquals("the emulator exited during the transfer (status 1): pacelab netns up: No space left on device", e.getMessage());
        assertTrue(client.alive(), "the caller stops the client");
    }

    @Test
    void aServerThatExitsIsNamedToo() throws Exception {
        ChildProcess client = start("client", "exec sleep 300");
        ChildProcess emulator = start("emulator", "exec sleep 300");
        ChildProcess server = start("server", "echo 'segmentation fault' >&2; exit 139");
        List<Waits.Watched> watched = List.of(new Waits.Watched("the emulator", emulator), new Waits.Watched("server x", server));
        RunFailedException e = assertThrows(RunFailedException.class, () -> Waits.exit(client, TIMEOUT_NS, watched));
        assertEquals("server x exited during the transfer (status 139): segmentation fault", e.getMessage());
    }

    @Test
    void theWaitEndsWhenTheClientExitsWhileTheOthersRun() throws Exception {
        ChildProcess emulator = start("emulator", "exec sleep 300");
        ChildProcess client = start("client", "exit 0");
        assertTrue(Waits.exit(client, TIMEOUT_NS, List.of(new Waits.Watched("the emulator", emulator))));
        assertFalse(client.alive());
        Waits.requireAlive(List.of(new Waits.Watched("the emulator", emulator)), "during the transfer");
    }

    @Test
    void aClientStillRunningAtTheTimeoutIsReported() throws Exception {
        ChildProcess emulator = start("emulator", "exec sleep 300");
        ChildProcess client = start("client", "exec sleep 300");
        assertFalse(Waits.exit(client, 50_000_000L, List.of(new Waits.Watched("the emulator", emulator))));
        assertTrue(client.alive());
    }
}
