package org.pacelab.lab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pacelab.lab.scenario.ScenarioException;
import org.pacelab.lab.testing.FakeHost;
import org.pacelab.lab.testing.Plans;
import org.pacelab.net.dc.DcFlowMode;
import org.pacelab.net.dc.SplitPolicy;
import org.pacelab.net.dc.SplitRatio;

/** Dual-connectivity scenarios: link.dc, flows, transfer.duration, link.dc.* sweeps, and their errors. */
class DcPlanningTest {
    private static final FakeHost ALL = FakeHost.everything();

    @Test
    void theFairnessSetupWithABatchSweep() throws ScenarioException {
        CampaignPlan p = Plans.plan("""
                link:
                  dc:
                    batch: 100
                    ratio: "9:1"
                    a: {rate: 40mbit, delay: 10ms}
                    b: "rate=8mbit delay=30ms"
                  up: {delay: 5ms}
                flows: [dc, a, b]
                transfer: {duration: 30s}
                implementations: [pacelab, ngtcp2]
                sweep:
                  link.dc.batch: [10, 150]
                """, ALL);
        assertEquals(4, p.configurations().size());
        Configuration c = p.configurations().getFirst();
        assertEquals("pacelab batch=10", c.name());
        assertEquals(Map.of("batch", "10"), c.sweepPoint());
        DcSetup dc = c.dc();
        assertEquals(new SplitPolicy.Batches(10, new SplitRatio(9, 1)), dc.spec().split());
        assertEquals(40_000_000L, dc.spec().a().rateBps());
        assertEquals(30_000_000L, dc.spec().b().delayNs());
        assertEquals(5_000_000L, dc.spec().up().delayNs());
        assertEquals(List.of(DcFlowMode.DUAL, DcFlowMode.PATH_A, DcFlowMode.PATH_B), dc.flows());
        assertEquals(30_000_000_000L, dc.durationNs());
        assertEquals(List.of("--dc", "batch=10 ratio=9:1", "--path-a", "rate=40mbit delay=10ms", "--path-b",
                "rate=8mbit delay=30ms"), dc.emulatorArguments());
        assertEquals(120_000_000_000L, c.timeoutNs());
    }

    @Test
    void defaultsAreOneSplitFlowForThreeMinutes() throws ScenarioException {
        Configuration c = Plans.plan("link: {dc: {batch: 50}}\nimplementations: [pacelab]\n", ALL).configurations().getFirst();
        assertEquals(List.of(DcFlowMode.DUAL), c.dc().flows());
        assertEquals(180_000_000_000L, c.dc().durationNs());
        Configuration sized = Plans.plan("link: {dc: {}}\nflows: 3\ntransfer: {size: 5MiB}\nimplementations: [pacelab]\n", ALL)
                .configurations().getFirst();
        assertEquals(0, sized.dc().durationNs());
        assertEquals(5L << 20, sized.transfer().totalBytes());
        assertEquals(List.of(DcFlowMode.DUAL, DcFlowMode.PATH_A, DcFlowMode.PATH_B), sized.dc().flows());
        assertNull(Plans.plan("implementations: [pacelab]\n", ALL).configurations().getFirst().dc());
    }

    @Test
    void theHoldLimitReceiverIsAReorderingValue() throws ScenarioException {
        Configuration c = Plans.plan("link: {dc: {batch: 100, reordering: hold-limit}}\nflows: [dc, a, b]\n"
                + "implementations: [pacelab]\n", ALL).configurations().getFirst();
        assertTrue(c.dc().spec().reordering().holdLimit());
        assertTrue(c.dc().emulatorArguments().get(1).contains("reordering=hold-limit"), c.dc().emulatorArguments().toString());
        assertStarts("test.yaml:1:37: link.dc.reordering: 'per-packet' is not on, off or hold-limit",
                Plans.refusal("link: {dc: {batch: 100, reordering: per-packet}}\nimplementations: [pacelab]\n", ALL));
    }

    @Test
    void singlePathFlowsInOrderIsADcKeyPassedToTheEmulatorAndSweepable() throws ScenarioException {
        Configuration c = Plans.plan("link: {dc: {batch: 100, single-path: in-order}}\nflows: [dc, a, b]\n"
                + "implementations: [pacelab]\n", ALL).configurations().getFirst();
        assertTrue(c.dc().spec().reordering().singlePathInOrder());
        assertTrue(c.dc().emulatorArguments().get(1).contains("single-path=in-order"), c.dc().emulatorArguments().toString());
        assertFalse(Plans.plan("link: {dc: {batch: 100}}\nflows: [dc, a, b]\nimplementations: [pacelab]\n", ALL)
                .configurations().getFirst().dc().spec().reordering().singlePathInOrder());
        List<Configuration> swept = Plans.plan("link: {dc: {}}\nflows: [dc, a, b]\nsweep: {link.dc.single-path: "
                + "[pass-through, in-order]}\nimplementations: [pacelab]\n", ALL).configurations();
        assertEquals(List.of(false, true), swept.stream().map(x -> x.dc().spec().reordering().singlePathInOrder()).toList());
        assertEquals("test.yaml:1:38: link.dc.single-path: 'held' is not a single-path receiver; use pass-through "
                + "(delivered as the path delivers, the default) or in-order (held in PDCP order like split flows)",
                Plans.refusal("link: {dc: {batch: 100, single-path: held}}\nimplementations: [pacelab]\n", ALL));
        assertStarts("test.yaml:1:8: link.dc: --dc single-path: in-order needs an in-order receiver",
                Plans.refusal("link: {dc: {reordering: \"off\", single-path: in-order}}\nimplementations: [pacelab]\n", ALL));
    }

    @Test
    void flowStartsAreSimulatedOnlyAndOnePerFlow() throws ScenarioException {
        String dc = "link: {dc: {batch: 100}}\nflows: [dc, a, b]\n";
        Configuration c = Plans.plan("mode: sim\n" + dc + "implementations:\n  - {name: p, server: pacelab, client: pacelab, "
                + "server-options: {flow-starts: \"2s,0s,0s\"}}\n", ALL).configurations().getFirst();
        assertEquals("2s,0s,0s", c.serverOptions().get("flow-starts"));
        assertEquals("2s,0s,0s", org.pacelab.lab.run.PacelabSimulation.options(c, 1, org.pacelab.lab.scenario.Collect.DEFAULT)
                .get("--flow-starts"));
        assertEquals("test.yaml:5:79: implementation p, pacelab (server): flow-starts: '0s,2s' gives 2 starts for 3 flows "
                + "(dc, a, b); give one time per entry of flows, in its order (e.g. 0s,2s,2s for [dc, a, b])",
                Plans.refusal("mode: sim\n" + dc + "implementations:\n  - {name: p, server: pacelab, client: pacelab, "
                        + "server-options: {flow-starts: \"0s,2s\"}}\n", ALL));
        assertStarts("test.yaml:5:79: pacelab flow-starts: '-1s' is negative; valid: a time of 0 or later per flow",
                Plans.refusal("mode: sim\n" + dc + "implementations:\n  - {name: p, server: pacelab, client: pacelab, "
                        + "server-options: {flow-starts: \"-1s,0s,0s\"}}\n", ALL));
        String relay = Plans.refusal(dc + "implementations:\n  - {name: p, server: pacelab, client: pacelab, "
                + "server-options: {flow-starts: \"2s,0s,0s\"}}\n", ALL);
        assertTrue(relay.endsWith("implementation p, pacelab (server): flow-starts staggers the simulated clients' starts; it "
                + "works in mode: sim only (the relay runner starts every flow's client at once); remove it or use mode: sim"),
                relay);
    }

    @Test
    void badValuesAreOneSentenceAtTheirPlace() {
        assertEquals("test.yaml:3:12: link.dc.ratio: '0:0' sums to zero, so no packet could be sent; at least one side must "
                + "be positive, e.g. 1:0 for path a only", Plans.refusal("link:\n  dc:\n    ratio: \"0:0\"\nimplementations: [pacelab]\n", ALL));
        assertEquals("test.yaml:3:12: link.dc.batch: '0' must be at least 1 packet",
                Plans.refusal("link:\n  dc:\n    batch: 0\nimplementations: [pacelab]\n", ALL));
        assertStarts("test.yaml:3:12: link.dc.ratio: 'nine' is not a split ratio", Plans.refusal("link:\n  dc:\n    ratio: nine\nimplementations: [pacelab]\n", ALL));
        assertEquals("test.yaml:3:5: unknown key 'bach' in link.dc (did you mean 'batch'?); valid keys: split, batch, ratio, "
                + "t-reordering, reordering, single-path, sn, wire, wire-overhead, rate, delay, loss, queue, a, b",
                Plans.refusal("link:\n  dc:\n    bach: 10\nimplementations: [pacelab]\n", ALL));
        assertStarts("test.yaml:3:15: link.dc.a rate: 'fast' is not a rate", Plans.refusal("link:\n  dc:\n    a: {rate: fast}\nimplementations: [pacelab]\n", ALL));
        assertStarts("test.yaml:2:3: link.preset does not apply with link.dc", Plans.refusal("link:\n  preset: quic-steps\n  dc: {}\nimplementations: [pacelab]\n", ALL));
        assertStarts("test.yaml:1:1: flows: several client/server pairs share a dual-connectivity link; add link.dc", Plans.refusal("flows: [dc, a]\nimplementations: [pacelab]\n", ALL));
        assertStarts("test.yaml:2:13: flows: 'c' is not a flow mode; use dc", Plans.refusal("link: {dc: {}}\nflows: [dc, c]\nimplementations: [pacelab]\n", ALL));
        assertStarts("test.yaml:2:29: sweep link.dc.batch: --dc batch: '0' must be at least 1 packet", Plans.refusal("link: {dc: {}}\nsweep: {link.dc.batch: [10, 0]}\nimplementations: [pacelab]\n", ALL));
        assertTrue(Plans.refusal("link: {dc: {}}\nsweep: {link.dc.bach: [10]}\nimplementations: [pacelab]\n", ALL)
                .contains("unknown dual-connectivity field 'bach'"));
    }

    private static void assertStarts(String prefix, String actual) {
        assertTrue(actual.startsWith(prefix), actual);
    }

    @Test
    void aMissingTraceFileIsNamedBeforeAnythingStarts() {
        String m = Plans.refusal("link:\n  dc:\n    b: {trace: /nonexistent/lte.down}\nimplementations: [pacelab]\n", ALL);
        assertEquals("test.yaml:3:16: link.dc.b.trace: /nonexistent/lte.down does not exist (a relative path starts at the "
                + "scenario file's directory; the LTE traces are in ../shared/traces next to the checkout)", m);
    }

    @Test
    void theSimulatorRunsDualConnectivityWithTheRelaysOptions() throws ScenarioException {
        CampaignPlan p = Plans.plan("""
                mode: [relay, sim]
                link:
                  dc: {batch: 50, a: {rate: 30mbit}}
                  up: {delay: 5ms}
                flows: [dc, a, b]
                transfer: {duration: 20s}
                implementations: [pacelab]
                """, ALL);
        assertEquals(2, p.configurations().size());
        Configuration sim = p.configurations().stream().filter(c -> c.mode() == org.pacelab.lab.scenario.Mode.SIM)
                .findFirst().orElseThrow();
        Map<String, String> o = org.pacelab.lab.run.PacelabSimulation.options(sim, 4, org.pacelab.lab.scenario.Collect.DEFAULT);
        assertEquals("batch=50", o.get("--dc"));
        assertEquals("rate=30mbit", o.get("--path-a"));
        assertEquals("delay=5ms", o.get("--up"));
        assertEquals("dc,a,b", o.get("--flows"));
        assertEquals("20000ms", o.get("--duration"));
        assertNull(o.get("--preset"));
        org.pacelab.sim.SimScenario s = org.pacelab.sim.SimOptions.parse(o, java.nio.file.Path.of("unused"));
        assertEquals(sim.dc().spec(), s.dc());
        assertEquals(sim.dc().flows(), s.flows());
        assertEquals(20_000_000_000L, s.duration());
    }
}
