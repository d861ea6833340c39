package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.store.ResultStore;

/**
 * Dual-connectivity campaigns end to end through {@code pacelab run}: the catalog's {@code dc-smoke.yaml} in relay mode
 * (real time, tagged) reports Jain's fairness index and per-flow throughput; a shortened fairness comparison shows
 * the index falling from equal paths with a 1:1 split to a 5:1 bandwidth ratio with the same split. The comparison
 * runs in the simulator (the same link model, stack and analysis in virtual time): in real time on a loaded host, CPU
 * stalls of the relay and the six endpoints shape the flows' shares as much as the links do, and the ordering of two
 * 15 s runs was not reliable there.
 */
@Tag("realtime")
class DcCampaignEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void smokeScenarioReportsFairness() throws Exception {
        Path dir = tmp.resolve("dc-smoke");
        CliRun r = CliRun.of("run", Path.of("..", "scenarios", "dc-smoke.yaml").toString(), "--out", dir.toString(), "--no-install");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("campaign dc-smoke: 1 of 1 runs finished"), r.out());
        assertTrue(r.out().contains("dual-connectivity report: "), r.out());
        assertTrue(Files.isRegularFile(dir.resolve("report/dc.html")));
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            for (String key : store.finishedRuns()) {
                Summary s = store.summary(key);
                double jfi = s.number(SummaryField.JFI);
                assertTrue(jfi > 1.0 / 3 && jfi <= 1.0, "jfi " + jfi);
                assertEquals(3L, s.get(SummaryField.FLOWS));
                String flows = s.string(SummaryField.FLOW_MBPS);
                assertTrue(flows.matches("dc=[0-9.]+ a=[0-9.]+ b=[0-9.]+"), flows);
                for (String part : flows.split(" ")) {
                    assertTrue(Double.parseDouble(part.substring(part.indexOf('=') + 1)) > 0, flows);
                }
            }
        }
        try (var runs = Files.walk(dir.resolve("runs"))) {
            assertTrue(runs.anyMatch(p -> p.getFileName().toString().equals("dc-summary.json")));
        }
    }

    @Test
    void fairnessFallsWithABandwidthRatioAndAnEvenSplit() throws Exception {
        Path s = Files.writeString(tmp.resolve("dc-ci.yaml"), """
                name: dc-ci
                mode: sim
                seed: 1
                link:
                  dc:
                    batch: 100
                    ratio: "1:1"
                    a: {rate: 12mbit, delay: 10ms, queue: 50p}
                    b: {rate: 12mbit, delay: 10ms, queue: 50p}
                  up: {delay: 10ms}
                flows: [dc, a, b]
                transfer: {duration: 15s}
                collect: {tap: off, qlog: off, keylog: off, keep: failed}
                implementations:
                  - {name: pacelab, server: pacelab, client: pacelab, options: {cc: cubic}}
                sweep:
                  link.dc.b.rate: [12mbit, 2400kbit]
                """);
        Path dir = tmp.resolve("dc-ci");
        CliRun r = CliRun.of("run", s.toString(), "--out", dir.toString(), "--no-install");
        assertEquals(0, r.code(), r.out() + r.err());
        List<Double> jfi = new ArrayList<>();
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            for (ResultStore.StoredConfiguration c : store.configurations()) {
                jfi.add(store.summary(c.runKeys().getFirst()).number(SummaryField.JFI));
            }
        }
        assertEquals(2, jfi.size(), r.out());
        // equal paths (12 and 12 Mbit/s), 1:1 split, then a 5:1 bandwidth ratio (12 and 2.4 Mbit/s) with the same split
        assertTrue(jfi.get(0) > jfi.get(1), "JFI equal paths " + jfi.get(0) + ", 5:1 bandwidth " + jfi.get(1));
        String html = Files.readString(dir.resolve("report/dc.html"));
        assertTrue(html.contains("b.rate"), "the report plots against the swept parameter");
    }
}
