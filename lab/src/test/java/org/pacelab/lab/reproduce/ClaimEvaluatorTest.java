package org.pacelab.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.lab.peer.PeerRegistry;
import org.pacelab.lab.plan.CampaignPlan;
import org.pacelab.lab.plan.Configuration;
import org.pacelab.lab.reproduce.ClaimRow.Verdict;
import org.pacelab.lab.reproduce.StudyReference.Agreement;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.lab.testing.Plans;

/**
 * Verdicts from synthetic run summaries: values against their tolerance, bounds, relations with their margin, optima
 * and trends along a sweep, and every "cannot measure" reason (no such peer, left out, a metric the runs lack).
 */
class ClaimEvaluatorTest {
    @TempDir
    Path dir;

    private static final String SCENARIO = """
            mode: sim
            transfer: {size: 1MiB}
            repetitions: 2
            implementations: [pacelab]
            sweep: {server.gso: [1, 16, 64]}
            """;

    private static Summary run(double drops, double goodput) {
        Summary s = new Summary();
        s.put(SummaryField.DROPS, (long) drops);
        s.put(SummaryField.GOODPUT_APP_MBPS, goodput);
        s.unavailable(SummaryField.PRECISION_US, "the qlog has no send times");
        return s;
    }

    private List<ClaimRow> evaluate(String claims, Map<String, String> leftOut, Map<String, List<Summary>> runsByGso)
            throws Exception {
        return evaluate(SCENARIO, claims, leftOut, runsByGso);
    }

    private List<ClaimRow> evaluate(String scenario, String claims, Map<String, String> leftOut,
                                    Map<String, List<Summary>> runsByGso) throws Exception {
        Files.writeString(dir.resolve("s.yaml"), scenario);
        Path ref = dir.resolve("ref.yaml");
        Files.writeString(ref, """
                study: t
                title: T
                citation: C
                campaigns: {c: {scenario: s.yaml}}
                claims:
                """ + claims);
        StudyReference r = ReferenceReader.read(ref);
        CampaignPlan full = Plans.plan(scenario, FakeHost.everything());
        Map<String, List<Summary>> runs = new LinkedHashMap<>();
        Map<String, String> left = new LinkedHashMap<>();
        List<Configuration> kept = new ArrayList<>();
        for (Configuration c : full.configurations()) {
            String gso = c.sweepPoint().get("server.gso");
            if (leftOut.containsKey(gso)) {
                left.put(c.id(), leftOut.get(gso));
            } else {
                kept.add(c);
                runs.put(c.id(), runsByGso.getOrDefault(gso, List.of()));
            }
        }
        PlannedCampaign pc = new PlannedCampaign(r.campaign("c"), dir, full,
                full.keeping(kept), left, null, runs);
        ClaimEvaluator e = new ClaimEvaluator(Map.of("c", pc), PeerRegistry.standard());
        assertEquals(List.of(), e.check(r.claims()));
        List<ClaimRow> rows = new ArrayList<>();
        r.claims().forEach(c -> rows.addAll(e.evaluate(c)));
        return rows;
    }

    private static final Map<String, List<Summary>> RUNS = Map.of(
            "1", List.of(run(16, 37.3), run(18, 37.4)),
            "16", List.of(run(40, 35.0), run(44, 35.2)),
            "64", List.of(run(400, 34.0), run(420, 34.2)));

    @Test
    void valuesAgreeWithinTheirToleranceAndDifferencesCarryTheMeasuredContext() throws Exception {
        List<ClaimRow> rows = evaluate("""
                  - {id: close, source: T1, says: s, study: {mean: 16.5, std: 0.67, unit: packets}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "1"}, metric: drops}}
                  - {id: far, source: T1, says: s, study: {mean: 16.5, unit: packets}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "64"}, metric: drops}}
                  - {id: goodput, source: T1, says: s, study: {mean: 37.37, unit: Mbit/s}, agree: {within: 0.5},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "1"}, metric: goodput}}
                  - {id: bound, source: T1, says: s, study: {at-least: 36}, pacelab: {campaign: c, implementation: pacelab,
                     point: {server.gso: "16"}, metric: goodput}}
                """, Map.of(), RUNS);
        assertEquals(4, rows.size());
        ClaimRow close = rows.get(0);
        assertEquals(Verdict.REPRODUCED, close.verdict());
        assertEquals("sim", close.mode());
        assertEquals("17 ± 1 (n 2, sim, pacelab server.gso=1)", close.pacelab());
        assertEquals("+0.5 packets (+3.03 %)", close.difference());
        ClaimRow far = rows.get(1);
        assertEquals(Verdict.DIFFERS, far.verdict());
        assertTrue(far.reason().startsWith("not within a factor of 2. drops 400–420"), far.reason());
        assertEquals(Verdict.REPRODUCED, rows.get(2).verdict());
        assertTrue(rows.get(2).pacelab().contains("goodput_app_mbps"), rows.get(2).pacelab());
        assertEquals(Verdict.DIFFERS, rows.get(3).verdict());
        assertEquals("-0.9 from the bound", rows.get(3).difference());
    }

    @Test
    void aPeerInBothRolesStatesItsCaveatOnce() throws Exception {
        String scenario = SCENARIO.replace("mode: sim", "mode: relay").replace("[pacelab]", "[picoquic]");
        List<ClaimRow> rows = evaluate(scenario, """
                  - {id: far, source: T1, says: s, study: {mean: 16.5, unit: packets}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: picoquic, point: {server.gso: "64"}, metric: drops}}
                """, Map.of(), RUNS);
        assertEquals(1, rows.size());
        assertEquals(Verdict.DIFFERS, rows.getFirst().verdict());
        String caveat = PeerRegistry.standard().get("picoquic").orElseThrow().caveat();
        String reason = rows.getFirst().reason();
        assertEquals(reason.indexOf(caveat), reason.lastIndexOf(caveat), reason);
        assertTrue(reason.contains("picoquic: " + caveat), reason);
    }

    @Test
    void relationsNeedTheirDirectionAndAClearMargin() throws Exception {
        List<ClaimRow> rows = evaluate("""
                  - {id: fewer, source: §5.2, says: s, study: {relation: lower, values: [6.35, 687.15]},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "1"}, metric: drops},
                     versus: {campaign: c, implementation: pacelab, point: {server.gso: "64"}, metric: drops}}
                  - {id: wrong-way, source: §5.2, says: s, study: {relation: higher},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "1"}, metric: drops},
                     versus: {campaign: c, implementation: pacelab, point: {server.gso: "64"}, metric: drops}}
                  - {id: too-close, source: §5.2, says: s, study: {relation: higher},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "16"}, metric: goodput},
                     versus: {campaign: c, implementation: pacelab, point: {server.gso: "64"}, metric: goodput}}
                """, Map.of(), RUNS);
        assertEquals(Verdict.REPRODUCED, rows.get(0).verdict());
        assertEquals("ratio 0.04146 (study 0.009241)", rows.get(0).difference());
        assertEquals(Verdict.DIFFERS, rows.get(1).verdict());
        assertEquals(Verdict.DIFFERS, rows.get(2).verdict(), "35.1 against 34.1 is within 5 %: " + rows.get(2));
    }

    @Test
    void optimaAndTrendsFollowTheSweep() throws Exception {
        List<ClaimRow> rows = evaluate("""
                  - {id: best, source: F3, says: s, study: {optimum: min, range: [1, 10]},
                     pacelab: {campaign: c, implementation: pacelab, metric: drops, over: server.gso}}
                  - {id: worst, source: F3, says: s, study: {optimum: max, range: [10, 20]},
                     pacelab: {campaign: c, implementation: pacelab, metric: drops, over: server.gso}}
                  - {id: falls, source: F4, says: s, study: {trend: falling},
                     pacelab: {campaign: c, implementation: pacelab, metric: goodput, over: server.gso}}
                  - {id: rises, source: F4, says: s, study: {trend: rising},
                     pacelab: {campaign: c, implementation: pacelab, metric: goodput, over: server.gso}}
                """, Map.of(), RUNS);
        assertEquals(Verdict.REPRODUCED, rows.get(0).verdict());
        assertEquals("optimum at server.gso=1", rows.get(0).difference());
        assertEquals(Verdict.DIFFERS, rows.get(1).verdict());
        assertEquals("optimum at server.gso=64", rows.get(1).difference());
        assertTrue(rows.get(1).pacelab().startsWith("drops server.gso=1: 17, server.gso=16: 42, server.gso=64: 410"), rows.get(1).pacelab());
        assertEquals(Verdict.REPRODUCED, rows.get(2).verdict());
        assertEquals(Verdict.DIFFERS, rows.get(3).verdict());
        assertEquals("2 of 2 steps go the other way", rows.get(3).difference());
    }

    @Test
    void whatCannotBeMeasuredSaysWhy() throws Exception {
        List<ClaimRow> rows = evaluate("""
                  - {id: peer, source: T1, says: s, study: {mean: 37.09}, agree: {within: 5%},
                     pacelab: {campaign: c, implementation: examplequic, metric: goodput}}
                  - {id: left, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "64"}, metric: drops}}
                  - {id: metric, source: T1, says: s, study: {mean: 120}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "1"}, metric: precision_us}}
                  - {id: unrun, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: pacelab, point: {server.gso: "16"}, metric: drops}}
                """, Map.of("64", "--quick runs only server.gso 1, 16 of this campaign"),
                Map.of("1", RUNS.get("1")));
        for (ClaimRow r : rows) {
            assertEquals(Verdict.CANNOT_MEASURE, r.verdict(), r.toString());
            assertTrue(r.pacelab().startsWith("cannot measure: "), r.pacelab());
            assertFalse(r.reason().isBlank());
        }
        assertEquals("test has no implementation named examplequic; this pacelab build has no examplequic peer ('pacelab peers' lists "
                + "those it has)", rows.get(0).reason());
        assertEquals("--quick runs only server.gso 1, 16 of this campaign", rows.get(1).reason());
        assertEquals("pacelab server.gso=1: precision_us: the qlog has no send times", rows.get(2).reason());
        assertTrue(rows.get(3).reason().contains("has no finished run"), rows.get(3).reason());
    }

    @Test
    void pointsMustNameSweepAxesAndPinOneConfiguration() throws Exception {
        Files.writeString(dir.resolve("s.yaml"), SCENARIO);
        Path ref = dir.resolve("ref.yaml");
        Files.writeString(ref, """
                study: t
                title: T
                citation: C
                campaigns: {c: {scenario: s.yaml}}
                claims:
                  - {id: axis, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: pacelab, point: {gso: "1"}, metric: drops}}
                  - {id: many, source: T1, says: s, study: {mean: 1}, agree: {factor: 2},
                     pacelab: {campaign: c, implementation: pacelab, metric: drops}}
                """);
        StudyReference r = ReferenceReader.read(ref);
        CampaignPlan full = Plans.plan(SCENARIO, FakeHost.everything());
        PlannedCampaign pc = new PlannedCampaign(r.campaign("c"), dir, full, full, Map.of(), null, Map.of());
        List<String> problems = new ClaimEvaluator(Map.of("c", pc), PeerRegistry.standard()).check(r.claims());
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith(ref + ":7:") && problems.get(0).contains("'gso' is not a sweep axis of pacelab"
                + " in test; its axes: server.gso"), problems.get(0));
        assertTrue(problems.get(1).contains("3 configurations of pacelab match in sim mode; pin server.gso with point"), problems.get(1));
    }

    @Test
    void sweepValuesAreNumbersWithOrWithoutAPercentSign() {
        assertEquals(50.0, ClaimEvaluator.parseNumber("50%"));
        assertEquals(150.0, ClaimEvaluator.parseNumber(" 150 "));
        assertEquals(null, ClaimEvaluator.parseNumber("1:1"));
    }

    @Test
    void agreementArithmetic() {
        assertTrue(ClaimEvaluator.agrees(new Agreement(0.5, Double.NaN, Double.NaN), 37.8, 37.37));
        assertFalse(ClaimEvaluator.agrees(new Agreement(0.5, Double.NaN, Double.NaN), 37.9, 37.37));
        assertTrue(ClaimEvaluator.agrees(new Agreement(Double.NaN, 0.05, Double.NaN), 35.0, 34.67));
        assertTrue(ClaimEvaluator.agrees(new Agreement(Double.NaN, Double.NaN, 2), 33, 16.5));
        assertFalse(ClaimEvaluator.agrees(new Agreement(Double.NaN, Double.NaN, 2), 34, 16.5));
        assertFalse(ClaimEvaluator.agrees(new Agreement(Double.NaN, Double.NaN, 2), 8, 16.5));
        assertFalse(ClaimEvaluator.agrees(new Agreement(Double.NaN, Double.NaN, 2), 0, 16.5));
    }
}
