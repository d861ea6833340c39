package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.AnalysisOptions;
import org.pacelab.analysis.CaptureAnalyzer;
import org.pacelab.analysis.RunResult;
import org.pacelab.analysis.summary.SummaryField;

/**
 * The pacing acceptance checks ({@link PacingAcceptanceTest}, scripts/pacing-acceptance.sh) in their smallest form
 * that runs in CI: {@code pacelab sim} through the quic-steps bottleneck (virtual time, seed 1, so no host timing
 * enters), then the analyzer on the run's tap, qlog and event log, exactly as for a relay run: 30 MiB for the rollback
 * pair (measured: drops 675 with quiche's rollback against 168 without, 25 cwnd restores against 0), 10 MiB for the
 * others, instead of 30-100 MiB through the relay. Claims (a) and (b) are checked as stated. Claim (c) — at least 99 % of packets in trains of at most two
 * with interval or leaky-bucket pacing and the hybrid wait — is about the real host's wait precision; the simulator
 * with an ideal host (every wait exact) puts 95.6 % there at 10 MiB and 98.5 % at 30 MiB (slow start and loss recovery
 * send back-to-back pairs and triples the pacer allows), so here it is checked as "pacing keeps at least 95 % of
 * packets in trains of at most two, where the unpaced GSO run has about 65 %"; the 99 % claim stays with the relay
 * runs on a prepared host (PacingAcceptanceTest, opt-in).
 */
class PacingAcceptanceSimTest {
    private static RunResult sim(Path dir, String size, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("sim", "--preset", "quic-steps", "--size", size, "--seed", "1", "--out",
                dir.toString()));
        args.addAll(List.of(options));
        CliRun r = CliRun.inChild(dir.getParent(), args.toArray(String[]::new));
        assertEquals(0, r.code(), r.out() + r.err());
        return CaptureAnalyzer.analyze(AnalysisOptions.of(dir.resolve("tap.pcapng")).withKeyLog(dir.resolve("keys.log"))
                .withQlog(dir.resolve("qlog")).withEvents(dir.resolve("events.bin"))
                .withClientLog(dir.resolve("client.json")), dir.getFileName().toString());
    }

    @Test
    void quicheRollbackSawtoothAndMoreDrops(@TempDir Path dir) throws Exception {
        // 30 MiB: at 10 MiB the transfer ends after the first rollback (1 restore against 0)
        RunResult off = sim(dir.resolve("off"), "30MiB", "--cc", "cubic", "--rollback", "off", "--pacer", "interval", "--quantum", "2p",
                "--send", "hybrid");
        RunResult quiche = sim(dir.resolve("quiche"), "30MiB", "--cc", "cubic", "--rollback", "quiche", "--pacer", "interval",
                "--quantum", "2p", "--send", "hybrid");
        long dropsOff = off.summary().integer(SummaryField.DROPS);
        long dropsQuiche = quiche.summary().integer(SummaryField.DROPS);
        assertTrue(dropsQuiche > dropsOff, "drops: quiche " + dropsQuiche + ", off " + dropsOff);
        int restoresQuiche = PacingAcceptanceTest.restores(quiche);
        int restoresOff = PacingAcceptanceTest.restores(off);
        assertTrue(restoresQuiche >= 5 && restoresQuiche > 2 * restoresOff,
                "cwnd restores: quiche " + restoresQuiche + ", off " + restoresOff);
    }

    @Test
    void unpacedGso16SendsTrainsOfSixteenAndPacingKeepsTrainsShort(@TempDir Path dir) throws Exception {
        RunResult gso = sim(dir.resolve("gso16"), "10MiB", "--cc", "cubic", "--pacer", "none", "--gso", "16");
        assertTrue(gso.summary().integer(SummaryField.PTL_MAX) >= 16, "longest train " + gso.summary().integer(SummaryField.PTL_MAX));
        double unpaced = gso.summary().number(SummaryField.PTL_LE2_SHARE);
        for (String pacer : List.of("interval", "leaky-bucket")) {
            RunResult paced = sim(dir.resolve(pacer), "10MiB", "--cc", "cubic", "--pacer", pacer, "--quantum", "1p", "--send", "hybrid",
                    "--host-model", "ideal");
            double share = paced.summary().number(SummaryField.PTL_LE2_SHARE);
            assertTrue(share >= 0.95 && share > unpaced + 0.2, pacer + ": share of packets in trains <= 2: " + share
                    + " (unpaced with GSO 16: " + unpaced + ")");
        }
    }
}
