package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.store.ResultStore;

/**
 * A peer declared by command line: Debian's ngtcp2 programs through the shipped template {@code scenarios/peers/
 * ngtcp2-debian.yaml}, included by a scenario, through the QUIC Steps relay with a tap. The runner fills the template
 * in (congestion controller, key log, qlog directory, download directory), the downloads are counted from the files
 * the client saved, and the key log the template passes through SSLKEYLOGFILE decrypts the tap.
 */
@Tag("interop")
class CommandLinePeerCampaignTest {
    @TempDir
    Path tmp;

    @Test
    void theNgtcp2TemplateRunsThroughTheRelayAndIsAnalysed() throws Exception {
        CampaignPreconditions.requireProgram("gtlsserver", "ngtcp2-server");
        CampaignPreconditions.requireProgram("gtlsclient", "ngtcp2-client");
        Path template = Path.of("").toAbsolutePath().getParent().resolve("scenarios/peers/ngtcp2-debian.yaml");
        assertTrue(Files.isRegularFile(template), template.toString());
        Path s = Files.writeString(tmp.resolve("cl.yaml"), """
                name: ci-command-line
                include: ["%s"]
                link: {preset: quic-steps}
                transfer: {size: 2MiB, streams: 2}
                repetitions: 1
                collect: {keep: all}
                implementations:
                  - {name: ngtcp2-cli, server: ngtcp2-cli, client: ngtcp2-cli, options: {cc: newreno}}
                  - {name: ngtcp2-cli-pacelab, server: ngtcp2-cli, client: pacelab}
                """.formatted(template));
        CliRun peers = CliRun.of("peers", "--scenario", s.toString());
        assertEquals(0, peers.code(), peers.err());
        assertTrue(peers.out().lines().anyMatch(l -> l.startsWith("ngtcp2-cli usable")), peers.out());
        assertTrue(peers.out().contains("version: ngtcp2 "), peers.out());

        Path dir = tmp.resolve("campaign");
        CliRun r = CliRun.inChild(tmp, "run", s.toString(), "--out", dir.toString(), "--no-install", "--no-report");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("2 of 2 runs finished"), r.out());
        assertTrue(r.out().contains("ngtcp2-cli: relay, server ngtcp2-cli {cc=newreno}, client ngtcp2-cli {cc=newreno}"), r.out());
        try (ResultStore store = ResultStore.openExisting(dir.resolve("campaign.duckdb"))) {
            for (String key : store.finishedRuns()) {
                var summary = store.summary(key);
                assertEquals(4L << 20, summary.get(SummaryField.TRANSFER_BYTES), key);
                long oneRtt = summary.integer(SummaryField.SERVER_1RTT_PACKETS);
                assertTrue(summary.integer(SummaryField.PN_RECOVERED) >= 0.99 * oneRtt, key + ": packet numbers from the template's "
                        + "key log: " + summary.integer(SummaryField.PN_RECOVERED) + " of " + oneRtt);
                assertTrue(summary.integer(SummaryField.QLOG_PACKETS_SENT) > 0, key + ": the server's qlog through {qlogdir}");
            }
        }
        List<Path> runs;
        try (Stream<Path> st = Files.list(dir.resolve("runs"))) {
            runs = st.filter(d -> d.getFileName().toString().startsWith("ngtcp2-cli-") && !d.getFileName().toString()
                    .startsWith("ngtcp2-cli-pacelab")).toList();
        }
        assertEquals(1, runs.size());
        String server = Files.readString(runs.getFirst().resolve("1/server.err.log")) + Files.readString(runs.getFirst().resolve("1/server.out.log"));
        assertTrue(Files.readString(runs.getFirst().resolve("1/keys.log")).contains("SERVER_TRAFFIC_SECRET_0"), server);
    }
}
