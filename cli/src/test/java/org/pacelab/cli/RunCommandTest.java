package org.pacelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad scenarios are refused before anything starts: exit 2, one sentence naming file:line:column, nothing created. */
class RunCommandTest {
    @TempDir
    Path tmp;

    private CliRun run(String yaml) throws Exception {
        Path f = Files.writeString(tmp.resolve("s.yaml"), yaml);
        return CliRun.of("run", f.toString(), "--out", tmp.resolve("campaign").toString(), "--no-install");
    }

    private void refused(CliRun r, String sentence) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals("pacelab run: " + tmp.resolve("s.yaml") + ":" + sentence, r.err().strip());
        assertFalse(Files.exists(tmp.resolve("campaign")), "nothing is created");
    }

    @Test
    void typoedKey() throws Exception {
        refused(run("name: t\nrepetitons: 2\nimplementations: [pacelab]\n"),
                "2:1: unknown key 'repetitons' in the scenario (did you mean 'repetitions'?); valid keys: name, description, "
                        + "reproduces, mode, link, transfer, repetitions, seed, seeds, timeout, implementations, sweep, collect, unavailable, "
                        + "flows, quick, host-setup, emulator-warmup, include, peers, order");
    }

    @Test
    void wrongUnit() throws Exception {
        refused(run("link: {preset: quic-steps, down: {delay: 20sec}}\nimplementations: [pacelab]\n"),
                "1:42: link.down delay: '20sec' is not a time; use a number with ns, us, ms or s, e.g. 20ms");
        refused(run("link: {preset: quic-steps, down: {delay: 20 ms}}\nimplementations: [pacelab]\n"),
                "1:42: link.down delay: '20 ms' must be one word without spaces, e.g. rate=40mbit, delay=20ms, queue=143p");
        refused(run("transfer: {size: 5 MB/s}\nimplementations: [pacelab]\n"),
                "1:18: transfer.size: '5 MB/s' is not a size; use a number with b, kb, mb (1024-based as in tc) or kib, mib, e.g. 1540b");
    }

    @Test
    void unknownImplementation() throws Exception {
        refused(run("implementations: [picoquik]\n"),
                "1:19: unknown implementation 'picoquik' (did you mean 'picoquic'?); valid: pacelab, ngtcp2, quiche, kwik, picoquic, "
                        + "aioquic, quic-go, nginx, curl, chromium");
    }

    @Test
    void aCongestionControllerThePeerDoesNotHaveIsNamedWithTheOnesItHas() throws Exception {
        // unavailable: skip keeps the sentences the same whether or not the peers are built here
        CliRun r = run("""
                unavailable: skip
                implementations:
                  - {name: p, server: picoquic, client: picoquic, options: {cc: vegas}}
                  - {name: q, server: quic-go, client: pacelab, server-options: {cc: bbr}}
                  - {name: a, server: aioquic, client: aioquic, options: {cc: bbr2}}
                """);
        assertEquals(2, r.code(), r.out() + r.err());
        String at = "pacelab run: " + tmp.resolve("s.yaml") + ":";
        assertEquals(String.join("\n",
                at + "3:65: picoquic cc: 'vegas' is not a congestion controller of picoquic; valid values: newreno, cubic, dcubic, "
                        + "fast, bbr, prague, bbr1, c4",
                at + "4:70: quic-go cc: 'bbr' is not a congestion controller of quic-go 0.29; valid values: cubic",
                at + "5:63: aioquic cc: 'bbr2' is not a congestion controller of aioquic; valid values: reno, newreno, cubic"),
                r.err().strip());
        assertFalse(Files.exists(tmp.resolve("campaign")), "nothing is created");
    }

    @Test
    void fqInRelayModeOnThisKernel() throws Exception {
        refused(run("implementations:\n  - {name: fq, server: pacelab, client: pacelab, server-options: {qdisc: fq}}\n"),
                "2:74: qdisc: fq cannot be used in relay mode: it would replace the qdisc of the host's loopback device for every "
                        + "program; use mode: netns (root, and a kernel with fq) or mode: sim, where fq is modelled");
    }

    @Test
    void checkPrintsThePlanAndRunsNothing() throws Exception {
        Path f = Files.writeString(tmp.resolve("s.yaml"), "name: t\nrepetitions: 3\nimplementations: [pacelab]\nsweep: {cc: [cubic, bbr]}\n");
        CliRun r = CliRun.of("run", f.toString(), "--out", tmp.resolve("campaign").toString(), "--check", "--no-install");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("2 configuration(s) x 3 repetition(s) = 6 runs"), r.out());
        boolean root = new org.pacelab.lab.host.Host().isRoot();
        assertTrue(r.out().contains("  pacelab cc=bbr: relay, server pacelab {cc=bbr, slow-start=onset" + (root ? ", realtime=on, realtime-priority=30}" : "}")),
                r.out());
        assertTrue(r.out().contains(root ? "host set-up: real-time scheduling (root)" : "host set-up left out: not root"), r.out());
        assertFalse(Files.exists(tmp.resolve("campaign")));
    }

    @Test
    void interleavedOrderIsShownInThePlanAndABadOrderIsOneSentence() throws Exception {
        Path f = Files.writeString(tmp.resolve("s.yaml"), "name: t\nrepetitions: 2\nimplementations: [pacelab]\nsweep: {cc: [cubic, bbr]}\n");
        CliRun r = CliRun.of("run", f.toString(), "--out", tmp.resolve("campaign").toString(), "--check", "--no-install",
                "--order", "interleaved");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("2 configuration(s) x 2 repetition(s) = 4 runs, interleaved (repetition by repetition)"), r.out());
        CliRun bad = CliRun.of("run", f.toString(), "--out", tmp.resolve("campaign").toString(), "--check", "--no-install",
                "--order", "random");
        assertEquals(2, bad.code(), bad.out() + bad.err());
        assertEquals("pacelab run: --order: 'random' is not a run order; valid values: grouped (every repetition of one configuration, "
                + "then the next; the default), interleaved (repetition 1 of every configuration, then repetition 2, ...)",
                bad.err().strip());
        assertFalse(Files.exists(tmp.resolve("campaign")));
    }

    @Test
    void missingScenarioFile() {
        CliRun r = CliRun.of("run", tmp.resolve("nope.yaml").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("pacelab run: SCENARIO: " + tmp.resolve("nope.yaml") + ": no such file"), r.err());
    }

    @Test
    void reportWithoutAStoreSaysWhere() {
        CliRun r = CliRun.of("report", "--campaign", tmp.toString());
        assertEquals(1, r.code());
        assertEquals("pacelab report: " + tmp.resolve("campaign.duckdb") + ": no results store here (a campaign's store is "
                + "<campaign dir>/campaign.duckdb)", r.err().strip());
    }

    @Test
    void peersListsEveryPeerWithWhetherItIsUsable() {
        CliRun r = CliRun.of("peers");
        assertEquals(0, r.code(), r.err());
        for (String p : new String[] {"pacelab", "ngtcp2", "quiche", "kwik", "picoquic", "aioquic", "quic-go", "nginx", "curl", "chromium"}) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(p + " ")), p + " missing in:\n" + r.out());
        }
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("pacelab   usable")), r.out());
    }
}
