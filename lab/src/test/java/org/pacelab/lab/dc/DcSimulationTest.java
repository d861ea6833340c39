package org.pacelab.lab.dc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.dc.DcRunData;
import org.pacelab.analysis.dc.DcRunReport;
import org.pacelab.analysis.dc.DcRunSummary;
import org.pacelab.sim.SimOptions;
import org.pacelab.sim.SimResult;
import org.pacelab.sim.SimScenario;
import org.pacelab.sim.Simulation;

/**
 * The dual-connectivity study's fairness setup in the simulator, measured by the relay's analysis of the event log:
 * one dual-connected flow and one single-path flow per path, downloading for a few seconds of virtual time.
 */
class DcSimulationTest {
    private static final long BIN_NS = 100_000_000L;
    private static final long WINDOW_NS = 2_000_000_000L;

    private static DcRunSummary fairnessRun(Path dir, String dc, String pathA, String pathB, String... extra) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--dc", dc);
        o.put("--path-a", pathA);
        o.put("--path-b", pathB);
        o.put("--flows", "dc,a,b");
        o.put("--duration", "8s");
        o.put("--seed", "1");
        o.put("--cc", "cubic");
        o.put("--tap", "off");
        o.put("--qlog", "off");
        for (int i = 0; i < extra.length; i += 2) {
            o.put(extra[i], extra[i + 1]);
        }
        SimScenario s = SimOptions.parse(o, dir);
        SimResult r = Simulation.run(s);
        assertTrue(r.completed(), r.outcome());
        DcRunAnalysis.Result a = DcRunAnalysis.analyze(r.files().events(), s.dc(), BIN_NS, 0, WINDOW_NS);
        System.out.printf("%s %s %s %s: virtual %.1f s in %.1f s wall%n%s", dc, pathA, pathB, String.join(" ", extra),
                r.virtualNanos() / 1e9, r.wallNanos() / 1e9, DcRunReport.text(a.summary()));
        return a.summary();
    }

    @Test
    void equalPathsWithAnEvenSplitAreFairerThanAFiveToOneBandwidthRatio(@TempDir Path dir) throws Exception {
        DcRunSummary equal = fairnessRun(dir.resolve("equal"), "batch=10 ratio=1:1", "rate=10mbit delay=10ms queue=50p",
                "rate=10mbit delay=10ms queue=50p");
        DcRunSummary skewed = fairnessRun(dir.resolve("skewed"), "batch=10 ratio=1:1", "rate=10mbit delay=10ms queue=50p",
                "rate=2mbit delay=10ms queue=50p");
        assertEquals(3, equal.flows().size());
        for (DcRunSummary.FlowResult f : equal.flows()) {
            assertTrue(f.throughputMbps() > 0, f.label());
        }
        assertTrue(equal.jfi() > 0.9, "JFI equal paths " + equal.jfi());
        assertTrue(skewed.jfi() < equal.jfi() - 0.1, "JFI equal " + equal.jfi() + ", 5:1 " + skewed.jfi());
        // the dual-connected flow used both paths half and half; the single-path flows one each
        DcRunSummary.FlowResult dcFlow = equal.flows().getFirst();
        assertEquals("dc", dcFlow.mode());
        assertTrue(Math.abs(dcFlow.pathShare()[0] - 0.5) < 0.05, "share of path a " + dcFlow.pathShare()[0]);
        assertEquals(1.0, equal.flows().get(1).pathShare()[0], 1e-9);
        assertEquals(1.0, equal.flows().get(2).pathShare()[1], 1e-9);
        for (DcRunSummary.PathResult p : equal.paths()) {
            assertTrue(p.utilization() > 0.8 && p.utilization() <= 1.0 + 1e-9, "path " + p.name() + " utilization " + p.utilization());
        }
    }

    /**
     * The pacer is the only difference. What holds for any seed: the split reorders with or without pacing (the dual-
     * connected flow's packets are held), the single-path flows are never held, and the runs differ. Which way the held
     * count and the fairness index move is not asserted: over 8 s it depends on the seed (see net/README.md, "Dual
     * connectivity", for 180 s runs).
     */
    @Test
    void pacingAgainstNoPacingOnADualConnectivityLink(@TempDir Path dir) throws Exception {
        String dc = "batch=100 ratio=1:1";
        String path = "rate=10mbit delay=10ms queue=50p";
        DcRunSummary paced = fairnessRun(dir.resolve("interval"), dc, path, path, "--pacer", "interval");
        DcRunSummary unpaced = fairnessRun(dir.resolve("none"), dc, path, path, "--pacer", "none");
        for (DcRunSummary run : java.util.List.of(paced, unpaced)) {
            assertTrue(run.flows().getFirst().reordering().held() > 0, "the split reorders");
            assertEquals(0, run.flows().get(1).reordering().held(), "a single-path flow is not held");
            assertEquals(0, run.flows().get(2).reordering().held(), "a single-path flow is not held");
        }
        DcRunData.Reordering p = paced.flows().getFirst().reordering();
        DcRunData.Reordering u = unpaced.flows().getFirst().reordering();
        System.out.printf("held: paced %d, unpaced %d; timer expiries %d, %d; JFI paced %.3f, unpaced %.3f%n", p.held(),
                u.held(), p.timerExpiries(), u.timerExpiries(), paced.jfi(), unpaced.jfi());
        assertTrue(p.held() != u.held() || paced.flows().getFirst().bytes() != unpaced.flows().getFirst().bytes(),
                "the pacer changes the run");
    }
}
