package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.RunSpec;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.store.ResultStore;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.lab.testing.Plans;

/** The free-space check before each run: the estimate, the sentence, and no run started when the disk is short. */
class RunSpaceTest {
    private static final String RELAY_512 = """
            mode: relay
            link: {preset: none}
            transfer: {size: 512MiB}
            implementations: [pacelab]
            """;

    @TempDir
    Path tmp;

    @Test
    void aRelayRunNeedsItsTapEventLogQlogAndTableAndTheMargin() throws Exception {
        CampaignPlan plan = Plans.plan(RELAY_512, new FakeHost());
        RunSpace.Need need = RunSpace.estimate(plan.configurations().getFirst(), Collect.DEFAULT);
        long b = 512L << 20;
        assertEquals((long) (1.15 * b) + (long) (0.1 * b) + (long) (0.2 * b) + (long) (0.5 * b) + (256L << 20), need.bytes());
        assertEquals(List.of("tap 588 MiB", "per-packet table 51 MiB", "event log 102 MiB", "qlog 256 MiB", "margin 256 MiB"), need.parts());
        Collect nothing = new Collect(false, false, true, false, true, Collect.Keep.ALL);
        assertEquals(256L << 20, RunSpace.estimate(plan.configurations().getFirst(), nothing).bytes(), "tap, qlog and events off");
    }

    @Test
    void aDirectRunWritesNoTapAndNoEventLog() throws Exception {
        CampaignPlan plan = Plans.plan("""
                mode: direct
                link: {preset: none, down: {wire: off}}
                transfer: {size: 512MiB}
                implementations: [pacelab]
                """, new FakeHost());
        assertEquals(List.of("qlog 256 MiB", "margin 256 MiB"), RunSpace.estimate(plan.configurations().getFirst(), Collect.DEFAULT).parts());
    }

    @Test
    void theRunsOwnDirectoryFromAnEarlierAttemptCountsAsFree() throws Exception {
        CampaignPlan plan = Plans.plan(RELAY_512, new FakeHost());
        RunSpec run = plan.runs().getFirst();
        CampaignLayout layout = new CampaignLayout(tmp.resolve("campaign"));
        Files.createDirectories(layout.runDir(run));
        long need = RunSpace.estimate(run.configuration(), Collect.DEFAULT).bytes();
        RunSpace.FreeSpace almost = dir -> need - 1000;
        assertThrows(InsufficientSpaceException.class, () -> RunSpace.require(run, layout, Collect.DEFAULT, almost));
        Files.write(layout.runDir(run).resolve("tap.pcapng.part"), new byte[4096]);
        RunSpace.require(run, layout, Collect.DEFAULT, almost);
    }

    @Test
    void aCampaignStopsBeforeARunTheDiskCannotHoldAndStartsNothing() throws Exception {
        CampaignPlan plan = Plans.plan(RELAY_512, new FakeHost());
        RunSpec run = plan.runs().getFirst();
        CampaignLayout layout = new CampaignLayout(tmp.resolve("campaign"));
        Files.createDirectories(layout.root());
        LocalExecutor executor = new LocalExecutor(layout, Plans.LAUNCHER, new FakeHost(), null, 1, plan.scenario().collect(),
                dir -> 44L << 10);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ResultStore store = ResultStore.open(layout.store())) {
            RunRecorder recorder = new RunRecorder(store, layout, new Progress(new PrintStream(out, true, StandardCharsets.UTF_8), false,
                    1, 0, 0), plan.scenario().collect(), 1);
            InsufficientSpaceException e = assertThrows(InsufficientSpaceException.class, () -> executor.execute(plan.runs(), recorder));
            assertEquals("not enough disk space for the next run (pacelab #1): " + layout.root() + " has 44 KiB free and the run "
                    + "needs about 1.2 GiB (tap 588 MiB, per-packet table 51 MiB, event log 102 MiB, qlog 256 MiB, margin 256 MiB); "
                    + "free some space there, give --out a directory on a disk with more room, or collect less in the scenario "
                    + "(collect: {tap: off} saves the largest part, qlog: off and events: off the next); the finished runs are "
                    + "stored and the same command resumes the campaign", e.getMessage());
            assertEquals(0, store.attempts(run.key()), "no attempt was recorded");
            assertEquals(0, recorder.finishedNow());
        }
        assertFalse(Files.exists(layout.runDir(run)), "the run did not start");
        assertFalse(Files.exists(layout.children()) && !Files.readString(layout.children()).isBlank(), "no process was started");
    }

    @Test
    void aFixedDurationDualConnectivityRunIsEstimatedFromItsPathsRatesOrOnlyTheMarginWhenARateIsUnknown() throws Exception {
        String known = """
                mode: relay
                link: {dc: {a: {rate: 40mbit, delay: 10ms}, b: "rate=8mbit delay=30ms"}}
                flows: [dc, a, b]
                transfer: {duration: 30s}
                implementations: [pacelab]
                """;
        Collect eventsOnly = new Collect(false, false, true, true, false, Collect.Keep.ALL);
        long b = 48_000_000L / 8 * 30; // both paths' rates times the duration
        assertEquals(List.of("event log " + RunSpace.format((long) (0.2 * b)), "margin 256 MiB"),
                RunSpace.estimate(Plans.plan(known, new FakeHost()).configurations().getFirst(), eventsOnly).parts());
        RunSpace.Need unknown = RunSpace.estimate(Plans.plan(known.replace("rate=8mbit", "rate=unlimited"), new FakeHost())
                .configurations().getFirst(), Collect.DEFAULT);
        assertEquals(256L << 20, unknown.bytes(), "not the planner's 64 GiB stand-in size times the flows");
        assertEquals(List.of("transfer size unknown (a path's rate is unlimited or trace-driven): files not estimated",
                "margin 256 MiB"), unknown.parts());
    }
}
