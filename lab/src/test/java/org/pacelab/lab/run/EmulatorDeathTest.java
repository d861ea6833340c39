package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.peer.PacelabLauncher;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.lab.testing.Plans;

/**
 * The highway campaign's hang (2026-12-02): the emulator died of a full disk mid-transfer and the runner waited for
 * the client until its timeout. A relay run on loopback whose emulator ({@link FakePacelab}) exits 1 with "No space
 * left on device" when the client's first datagram arrives must fail at once, naming that line, with every process of
 * the run stopped. Bounded by the run's timeout (120 s), which the failure must not come from.
 */
class EmulatorDeathTest {
    @TempDir
    Path tmp;

    private static PacelabLauncher fakePacelab() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new PacelabLauncher(List.of(java, "-cp", System.getProperty("java.class.path"), FakePacelab.class.getName()),
                Set.of("server", "client", "emulate"));
    }

    @Test
    void anEmulatorThatDiesMidTransferFailsTheRunAtOnceWithItsLastErrorLine() throws Exception {
        CampaignPlan plan = Plans.plan("""
                mode: relay
                link: {preset: none}
                transfer: {size: 1MiB}
                timeout: 120s
                implementations: [pacelab]
                """, new FakeHost());
        CampaignLayout layout = new CampaignLayout(tmp.resolve("campaign"));
        ProcessSupervisor supervisor = new ProcessSupervisor(layout.children());
        try {
            HostRun here = new HostRun(layout, supervisor, new FakeHost(), fakePacelab(), Pki.prepare(layout.pki()), null,
                    plan.scenario().collect());
            HostRun.Attempt a = here.attempt(plan.runs().getFirst());
            assertFalse(a.ok());
            assertTrue(a.error().startsWith("the emulator exited during the transfer (status 1): pacelab emulate: No space left on device"),
                    a.error());
            assertEquals(List.of(), supervisor.live(), "server and client were stopped");
        } finally {
            supervisor.stopAll(2_000);
        }
    }

    @Test
    void aTapTheEmulatorDidNotFinishFailsTheRunInsteadOfBeingStoredWithoutIt() throws Exception {
        Files.write(tmp.resolve("tap.pcapng.part"), new byte[3 << 20]);
        Files.write(tmp.resolve("events.bin"), new byte[16]);
        RunFailedException e = assertThrows(RunFailedException.class,
                () -> EmulatedRunExecutor.requireFinishedFiles(tmp, Collect.DEFAULT));
        assertTrue(e.getMessage().startsWith("the emulator stopped without finishing tap.pcapng (only tap.pcapng.part, 3 MiB, is there; "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith(" free on its disk); the run is not stored"), e.getMessage());
        Files.move(tmp.resolve("tap.pcapng.part"), tmp.resolve("tap.pcapng"));
        EmulatedRunExecutor.requireFinishedFiles(tmp, Collect.DEFAULT);
    }
}
