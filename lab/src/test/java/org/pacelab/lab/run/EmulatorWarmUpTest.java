package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.scenario.Collect;
import org.pacelab.lab.scenario.Mode;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.lab.testing.Plans;
import org.pacelab.net.driver.WarmUp;

/**
 * The emulator's warm-up in campaigns: relay and netns runs pass {@code --warmup} with the default count unless the
 * scenario turns it off, and each run's summary records what the emulator reported.
 */
class EmulatorWarmUpTest {
    private static final FakeHost ALL = FakeHost.everything();
    private static final String YAML = "mode: [relay, netns, sim]\nimplementations: [pacelab]\n";

    @Test
    void relayAndNetnsRunsWarmTheEmulatorUpByDefault() throws Exception {
        CampaignPlan plan = Plans.plan(YAML, ALL);
        assertEquals(3, plan.configurations().size());
        for (Configuration c : plan.configurations()) {
            if (c.mode() == Mode.SIM) {
                assertEquals(0, c.emulatorWarmUp(), "a simulated run has no emulator");
                continue;
            }
            assertEquals(WarmUp.DEFAULT_PACKETS, c.emulatorWarmUp(), c.name());
            assertEquals(String.valueOf(WarmUp.DEFAULT_PACKETS), warmUpArgument(c), c.name());
        }
    }

    @Test
    void aScenarioTurnsItOffOrSetsTheCount() throws Exception {
        CampaignPlan on = Plans.plan(YAML, ALL);
        CampaignPlan off = Plans.plan("emulator-warmup: off\n" + YAML, ALL);
        CampaignPlan some = Plans.plan("emulator-warmup: 5000\n" + YAML, ALL);
        for (int i = 0; i < on.configurations().size(); i++) {
            Configuration c = off.configurations().get(i);
            assertEquals(0, c.emulatorWarmUp(), c.name());
            if (c.mode() == Mode.SIM) {
                assertEquals(on.configurations().get(i).id(), c.id(), "the simulator is unaffected");
                continue;
            }
            List<String> args = EmulatorArguments.of(c, 1, Path.of("run"), Collect.DEFAULT);
            assertEquals("off", warmUpArgument(c), c.name());
            assertFalse(args.contains(String.valueOf(WarmUp.DEFAULT_PACKETS)), args.toString());
            assertNotEquals(on.configurations().get(i).id(), c.id(), "runs with and without warm-up are never mixed");
            assertEquals("5000", warmUpArgument(some.configurations().get(i)));
        }
    }

    @Test
    void aBadValueIsOneSentenceWithItsPlace() {
        assertEquals("test.yaml:1:18: emulator-warmup: 'soon' is not valid; use off, on (30000 packets) or a number of "
                + "packets from 100 to 10000000", Plans.refusal("emulator-warmup: soon\n" + YAML, ALL));
    }

    @Test
    void theRunRecordsWhatTheEmulatorSaysItDid(@TempDir Path dir) throws Exception {
        String lateness = "delivery lateness (delay error): p50 1.0 us, p99 2.0 us, p99.9 3.0 us, max 4.0 us over 10 packets\n";
        String warm = new WarmUp.Result(30000, 29000, 800_000_000L, 9_000_000_000L, 150_000_000L, false, 30000).describe();
        Summary s = new Summary();
        RunConditions.record(s, 1, 2, Files.writeString(dir.resolve("a.log"), "link down: x\n" + warm + "\nready: y\n" + lateness), null);
        assertEquals(30000L, s.integer(SummaryField.EMULATOR_WARMUP_PACKETS));
        assertEquals(4.0, s.number(SummaryField.EMULATOR_LATENESS_MAX_US), "the warm-up's line is not the run's lateness");
        Summary off = new Summary();
        RunConditions.record(off, 1, 2, Files.writeString(dir.resolve("b.log"), WarmUp.OFF + "\n" + lateness), null);
        assertEquals(0L, off.integer(SummaryField.EMULATOR_WARMUP_PACKETS));
        Summary old = new Summary();
        RunConditions.record(old, 1, 2, Files.writeString(dir.resolve("c.log"), lateness), null);
        assertFalse(old.has(SummaryField.EMULATOR_WARMUP_PACKETS));
        assertTrue(old.reason(SummaryField.EMULATOR_WARMUP_PACKETS).contains("has no warm-up line"));
        Summary sim = new Summary();
        RunConditions.record(sim, 1, 2, null, "simulated run");
        assertEquals("simulated run", sim.reason(SummaryField.EMULATOR_WARMUP_PACKETS));
    }

    private static String warmUpArgument(Configuration c) {
        List<String> args = EmulatorArguments.of(c, 1, Path.of("run"), Collect.DEFAULT);
        int i = args.indexOf("--warmup");
        assertTrue(i >= 0 && i + 1 < args.size(), args.toString());
        assertEquals(i, args.lastIndexOf("--warmup"), "one --warmup");
        return args.get(i + 1);
    }
}
