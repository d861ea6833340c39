package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.store.ResultStore;

/**
 * Small campaigns end to end, as CI runs them: a scenario through {@code pacelab run} (emulator, server and client as
 * separate processes, or the simulator), the store, the terminal table, the HTML report, export, and a second
 * invocation that finds everything done.
 */
class CampaignEndToEndTest {
    @TempDir
    Path tmp;

    private Path scenario(String yaml) throws Exception {
        return Files.writeString(tmp.resolve("ci.yaml"), yaml);
    }

    @Test
    void relayAndSimCampaignWithPacelab() throws Exception {
        Path s = scenario("""
                name: ci-small
                reproduces: CI smoke campaign
                link: {preset: quic-steps}
                transfer: {size: 2MiB}
                repetitions: 2
                implementations:
                  - {name: pacelab, server: pacelab, client: pacelab, options: {cc: cubic, pacer: interval}}
                  - {name: pacelab-sim, server: pacelab, client: pacelab, mode: sim, options: {cc: cubic, pacer: interval}}
                """);
        Path dir = tmp.resolve("campaign");
        CliRun r = CliRun.inChild(tmp, "run", s.toString(), "--out", dir.toString(), "--no-install");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("campaign ci-small: 4 of 4 runs finished (4 in this session)"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("configuration ") && l.contains("Goodput")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("pacelab (relay) ")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("pacelab-sim (sim) ")), r.out());
        assertTrue(Files.isRegularFile(dir.resolve("report/index.html")));
        assertTrue(Files.isRegularFile(dir.resolve("report/figures/ipg-cdf.png")));
        assertTrue(Files.isRegularFile(dir.resolve("report/figures/train-length-cdf.svg")));
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            assertEquals(4, store.finishedRuns().size());
            for (String key : store.finishedRuns()) {
                var summary = store.summary(key);
                assertEquals(2L << 20, summary.get(SummaryField.TRANSFER_BYTES));
                assertTrue(summary.integer(SummaryField.PACKETS) > 1400, "server packets of a 2 MiB transfer");
                assertTrue(summary.number(SummaryField.PRECISION_MATCHED_SHARE) >= 0.99, "qlog matched to the tap");
                assertTrue(summary.has(SummaryField.DROPS), "drops from the event log");
            }
        }
        String html = Files.readString(dir.resolve("report/index.html"));
        assertTrue(html.contains("CI smoke campaign"));
        assertTrue(html.contains("data-configuration=\"pacelab (relay)\""));

        CliRun export = CliRun.of("report", "--campaign", dir.toString(), "--export", "csv");
        assertEquals(0, export.code(), export.err());
        List<String> rows = Files.readAllLines(dir.resolve("export/summaries.csv"));
        assertEquals(5, rows.size(), String.join("\n", rows));

        CliRun again = CliRun.inChild(tmp, "run", s.toString(), "--out", dir.toString(), "--no-install");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("resuming: 4 of 4 runs are already finished and stored; 0 to go"), again.out());
        assertTrue(again.out().contains("4 of 4 runs finished (0 in this session)"), again.out());
    }

    @Test
    void directModeMeasuresTheStacksGoodputWithoutAnEmulator() throws Exception {
        Path s = scenario("""
                name: ci-direct
                mode: direct
                link: {preset: none, down: {wire: off}}
                transfer: {size: 2MiB}
                implementations:
                  - {name: pacelab, server: pacelab, client: pacelab, options: {pacer: none}}
                """);
        Path dir = tmp.resolve("direct");
        CliRun r = CliRun.inChild(tmp, "run", s.toString(), "--out", dir.toString(), "--no-install", "--no-report");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("campaign ci-direct: 1 of 1 runs finished"), r.out());
        assertTrue(r.out().contains("host set-up: none applied (no emulated run"), r.out());
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            var summary = store.summary(store.finishedRuns().iterator().next());
            assertEquals(2L << 20, summary.get(SummaryField.TRANSFER_BYTES));
            assertEquals("client_log", summary.get(SummaryField.TRANSFER_BYTES_SOURCE));
            assertTrue(summary.number(SummaryField.GOODPUT_APP_MBPS) > 0, "goodput from the client's log");
            assertTrue(summary.number(SummaryField.GOODPUT_WALL_MBPS) > 0, "goodput over the client's wall time");
            assertTrue(!summary.has(SummaryField.DROPS), "no emulator, so no drops are claimed");
            assertTrue(summary.reason(SummaryField.DROPS).startsWith("mode direct has no emulator in the path"),
                    summary.reason(SummaryField.DROPS));
        }
    }

    @Test
    @Tag("interop")
    void ngtcp2AndChromiumThroughTheRelay() throws Exception {
        CampaignPreconditions.requireProgram("gtlsserver", "ngtcp2-server");
        CampaignPreconditions.requireProgram("gtlsclient", "ngtcp2-client");
        CampaignPreconditions.requireProgram("chromium", "chromium");
        Path s = scenario("""
                name: ci-interop
                link: {preset: quic-steps}
                transfer: {size: 2MiB}
                repetitions: 2
                implementations:
                  - {name: ngtcp2, server: ngtcp2, client: ngtcp2, options: {cc: cubic}}
                  - {name: chromium, server: pacelab, client: chromium}
                """);
        Path dir = tmp.resolve("campaign");
        CliRun r = CliRun.inChild(tmp, "run", s.toString(), "--out", dir.toString(), "--no-install");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("4 of 4 runs finished"), r.out());
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            for (String key : store.finishedRuns()) {
                var summary = store.summary(key);
                assertEquals("quic", summary.string(SummaryField.PROTOCOL), key);
                assertTrue(summary.integer(SummaryField.PN_RECOVERED) > 1000, key + ": packet numbers from the key log");
                assertTrue(summary.has(SummaryField.GOODPUT_WALL_MBPS), key);
            }
        }
    }

    @Test
    @Tag("root")
    @Tag("interop")
    void tcpTlsBaselineAndPacelabInNetnsMode() throws Exception {
        CampaignPreconditions.requireRoot();
        CampaignPreconditions.requireProgram("nginx", "nginx");
        CampaignPreconditions.requireProgram("curl", "curl");
        Path s = scenario("""
                name: ci-netns
                mode: netns
                link: {preset: quic-steps}
                transfer: {size: 2MiB}
                repetitions: 1
                implementations:
                  - {name: tcp-tls, server: nginx, client: curl, options: {cc: cubic}}
                  - pacelab
                """);
        Path dir = tmp.resolve("campaign");
        CliRun r = CliRun.inChild(tmp, "run", s.toString(), "--out", dir.toString(), "--no-install");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("2 of 2 runs finished"), r.out());
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            List<String> protocols = store.finishedRuns().stream().map(k -> {
                try {
                    return store.summary(k).string(SummaryField.PROTOCOL);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }).sorted().toList();
            assertEquals(List.of("quic", "tcp"), protocols);
        }
        assertEquals(List.of(), org.pacelab.net.netns.NetnsLab.leftovers(), "no namespace or link is left");
    }
}
