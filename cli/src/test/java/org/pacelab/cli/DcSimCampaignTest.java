package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.store.ResultStore;

/**
 * Dual-connectivity campaigns in the simulator through {@code pacelab run} (virtual time, so untagged): the catalog's
 * {@code dc-sim-smoke.yaml} stores the fairness setup's summary, and its two repetitions (seeds 1 and 2) differ;
 * the catalog's {@code dc-pacing} and {@code dc-batch-size} plan sim runs beside the relay's.
 */
class DcSimCampaignTest {
    @TempDir
    Path tmp;

    @Test
    void simSmokeScenarioReportsFairness() throws Exception {
        Path dir = tmp.resolve("dc-sim-smoke");
        CliRun r = CliRun.of("run", Path.of("..", "scenarios", "dc-sim-smoke.yaml").toString(), "--out", dir.toString(),
                "--no-install", "--jobs", "1");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("campaign dc-sim-smoke: 2 of 2 runs finished"), r.out());
        assertTrue(r.out().contains("dual-connectivity report: "), r.out());
        List<String> flows = new ArrayList<>();
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            for (String key : store.finishedRuns()) {
                Summary s = store.summary(key);
                double jfi = s.number(SummaryField.JFI);
                assertTrue(jfi > 0.7 && jfi <= 1.0, "jfi " + jfi);
                assertEquals(3L, s.get(SummaryField.FLOWS));
                String f = s.string(SummaryField.FLOW_MBPS);
                assertTrue(f.matches("dc=[0-9.]+ a=[0-9.]+ b=[0-9.]+"), f);
                assertTrue(s.number(SummaryField.PATH_A_UTILIZATION) > 0.8, s.toString());
                assertTrue(((Number) s.get(SummaryField.REORDER_HELD)).longValue() > 0, s.toString());
                flows.add(f);
            }
        }
        assertEquals(2, flows.size());
        assertTrue(!flows.get(0).equals(flows.get(1)), "two seeds, two results: " + flows);
        try (var runs = Files.walk(dir.resolve("runs"))) {
            assertTrue(runs.anyMatch(p -> p.getFileName().toString().equals("dc-summary.json")));
        }
    }

    @Test
    void theCatalogPlansDualConnectivityInTheSimulator() {
        for (String name : List.of("dc-pacing.yaml", "dc-batch-size.yaml", "dc-sim-smoke.yaml")) {
            CliRun r = CliRun.of("run", Path.of("..", "scenarios", name).toString(), "--check", "--out", tmp.resolve(name).toString(),
                    "--no-install");
            assertEquals(0, r.code(), name + ": " + r.out() + r.err());
            assertTrue(r.out().contains(": sim, server pacelab"), name + ": " + r.out());
        }
    }
}
