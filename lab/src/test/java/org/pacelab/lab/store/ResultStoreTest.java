package org.pacelab.lab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.metrics.RunDistributions;
import org.pacelab.analysis.report.ConfigurationRuns;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.table.PacketCsvReader;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.lab.testing.Plans;

class ResultStoreTest {
    @TempDir
    Path tmp;

    private static Configuration configuration() throws ScenarioException {
        CampaignPlan p = Plans.plan("implementations: [pacelab]\n", FakeHost.everything());
        return p.configurations().getFirst();
    }

    @Test
    void finishedRunRoundTripsSummaryDistributionsAndTimeline() throws Exception {
        Path db = tmp.resolve("campaign.duckdb");
        Configuration c = configuration();
        Path runDir = Files.createDirectories(tmp.resolve("r1"));
        try (ResultStore s = ResultStore.open(db)) {
            s.putCampaignInfo(Map.of("scenario.name", "t"));
            s.putConfiguration(c, 0, "pacelab dev", "pacelab dev");
            s.recordFinished(StoreFixtures.run(c.id() + "/1", c.id(), 1, runDir, 35.5, true));
        }
        try (ResultStore s = ResultStore.openExisting(db)) {
            assertEquals(Set.of(c.id() + "/1"), s.finishedRuns());
            assertEquals(1, s.attempts(c.id() + "/1"));
            assertEquals("t", s.campaignInfo().get("scenario.name"));
            Summary back = s.summary(c.id() + "/1");
            assertEquals(6L, back.get(SummaryField.PACKETS));
            assertEquals(35.5, back.number(SummaryField.GOODPUT_WIRE_MBPS));
            assertEquals("quic", back.string(SummaryField.PROTOCOL));
            assertEquals(Boolean.FALSE, back.get(SummaryField.CAPTURE_TRUNCATED));
            assertFalse(back.has(SummaryField.DROPS));
            assertEquals("no emulator event log given (--events)", back.reason(SummaryField.DROPS));

            List<ResultStore.StoredConfiguration> configs = s.configurations();
            assertEquals(1, configs.size());
            assertEquals(c.name(), configs.getFirst().name());
            List<ConfigurationRuns> input = s.reportInput(configs);
            RunResult r = input.getFirst().runs().getFirst();
            RunDistributions fromCsv = PacketCsvReader.read(StoreFixtures.packets(Files.createDirectories(tmp.resolve("again"))));
            assertEquals(fromCsv.gaps().count(), r.distributions().gaps().count());
            assertEquals(5, r.distributions().gaps().count());
            assertEquals(fromCsv.gaps().quantileNs(0.5), r.distributions().gaps().quantileNs(0.5));
            assertEquals(3, r.distributions().trains().trains());
            assertEquals(6, r.distributions().trains().packets());
            assertEquals(fromCsv.trains().perPacketMean(), r.distributions().trains().perPacketMean(), 1e-12);
            assertEquals(3, r.distributions().sendDelays().count());
            assertEquals(2, r.timeline().size());
            assertEquals(29040, r.timeline().value(org.pacelab.analysis.qlog.CongestionTimeline.Column.CONGESTION_WINDOW, 1));
        }
    }

    @Test
    void aRunWithoutTablesHasEmptyDistributionsAndNoTimeline() throws Exception {
        Path db = tmp.resolve("campaign.duckdb");
        try (ResultStore s = ResultStore.open(db)) {
            s.putConfiguration(configuration(), 0, "a", "b");
            String id = configuration().id();
            s.recordFinished(StoreFixtures.run(id + "/1", id, 1, tmp, 10, false));
            RunResult r = s.reportInput(s.configurations()).getFirst().runs().getFirst();
            assertEquals(0, r.distributions().gaps().count());
            assertNull(r.timeline());
        }
    }

    @Test
    void failedAttemptsAreLoggedAndLeaveTheRunUnfinished() throws Exception {
        try (ResultStore s = ResultStore.open(tmp.resolve("campaign.duckdb"))) {
            s.recordFailure("x/1", 1, "client exited with status 1", java.time.Instant.now(), 2.0);
            s.recordFailure("x/1", 2, "again", java.time.Instant.now(), 2.0);
            assertEquals(2, s.attempts("x/1"));
            assertTrue(s.finishedRuns().isEmpty());
        }
    }

    @Test
    void aPacketTableWithOtherColumnsIsRefusedAndNothingIsStored() throws Exception {
        Path bad = tmp.resolve("bad.csv");
        Files.writeString(bad, "frame,time_ns\n1,2\n");
        try (ResultStore s = ResultStore.open(tmp.resolve("campaign.duckdb"))) {
            FinishedRun good = StoreFixtures.run("c/1", "c", 1, tmp, 1, false);
            FinishedRun r = new FinishedRun("c/1", "c", 1, 1, 1, good.startedAt(), 1, 1, 1, tmp, good.summary(), bad, null);
            StoreException e = assertThrows(StoreException.class, () -> s.recordFinished(r));
            assertTrue(e.getMessage().contains("bad.csv:1: expected the header frame,time_ns,dir,"), e.getMessage());
            assertTrue(s.finishedRuns().isEmpty());
        }
    }

    @Test
    void exportsEveryTableAsCsvAndParquet() throws Exception {
        Path db = tmp.resolve("campaign.duckdb");
        Configuration c = configuration();
        try (ResultStore s = ResultStore.open(db)) {
            s.putConfiguration(c, 0, "a", "b");
            s.recordFinished(StoreFixtures.run(c.id() + "/1", c.id(), 1, Files.createDirectories(tmp.resolve("r")), 12.5, true));
            List<Path> csv = s.export(tmp.resolve("csv"), ExportFormat.CSV);
            List<Path> parquet = s.export(tmp.resolve("parquet"), ExportFormat.PARQUET);
            assertEquals(ResultStore.EXPORTS.size(), csv.size());
            List<String> summaries = Files.readAllLines(tmp.resolve("csv/summaries.csv"));
            assertTrue(summaries.getFirst().startsWith("configuration,repetition,run_key,summary_version,"), summaries.getFirst());
            assertEquals(2, summaries.size());
            assertEquals(9, Files.readAllLines(tmp.resolve("csv/packets.csv")).size());
            assertEquals(ResultStore.EXPORTS.size(), parquet.size());
            try (Connection q = DriverManager.getConnection("jdbc:duckdb:");
                 Statement st = q.createStatement();
                 ResultSet r = st.executeQuery("SELECT count(*), sum(ipg_ns) FROM read_parquet('" + tmp.resolve("parquet/packets.parquet") + "')")) {
                r.next();
                assertEquals(8, r.getLong(1));
                assertEquals(1_050_000, r.getLong(2));
            }
        }
    }

    @Test
    void killedInsideATransactionLeavesFinishedRunsWholeAndTheUnfinishedOneAbsent() throws Exception {
        Path db = tmp.resolve("campaign.duckdb");
        killChildAt(db, "open-transaction", "IN_TRANSACTION");
        try (ResultStore s = ResultStore.openExisting(db)) {
            assertEquals(Set.of("c/1"), s.finishedRuns());
            assertEquals(30.0, s.summary("c/1").number(SummaryField.GOODPUT_WIRE_MBPS));
            assertEquals(6, count(s, "c/1"));
            assertThrows(StoreException.class, () -> s.summary("c/2"));
        }
        try (Connection q = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath());
             Statement st = q.createStatement();
             ResultSet r = st.executeQuery("SELECT count(*) FILTER (run_key = 'c/2'), count(*) FROM packets")) {
            r.next();
            assertEquals(0, r.getLong(1));
            assertEquals(8, r.getLong(2));
        }
    }

    @Test
    void killedRightAfterACommitKeepsThatRun() throws Exception {
        Path db = tmp.resolve("campaign.duckdb");
        killChildAt(db, "after-commit", "COMMITTED");
        try (ResultStore s = ResultStore.openExisting(db)) {
            assertEquals(Set.of("c/1", "c/2"), s.finishedRuns());
            assertEquals(31.0, s.summary("c/2").number(SummaryField.GOODPUT_WIRE_MBPS));
            assertEquals(6, count(s, "c/2"));
        }
    }

    private long count(ResultStore s, String key) throws Exception {
        return s.reportInput(List.of(new ResultStore.StoredConfiguration("c", "c", "relay", "p", "p", "", "", List.of(key))))
                .getFirst().runs().getFirst().distributions().trains().packets();
    }

    private void killChildAt(Path db, String mode, String marker) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                StoreCrashChild.class.getName(), db.toString(), tmp.resolve("runs").toString(), mode)
                .redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean seen = false;
            StringBuilder output = new StringBuilder();
            while ((line = r.readLine()) != null) {
                output.append(line).append('\n');
                if (line.equals(marker)) {
                    seen = true;
                    break;
                }
            }
            assertTrue(seen, "the child never reached " + marker + ":\n" + output);
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, p.exitValue());
        } finally {
            p.destroyForcibly();
        }
    }
}
