package org.pacelab.analysis.dc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DcRunMetricsTest {
    private static final long BIN = 100_000_000L; // 100 ms

    private static long[] constant(int from, int to, long perBin) {
        long[] v = new long[to];
        Arrays.fill(v, from, to, perBin);
        return v;
    }

    /** Three flows as in the fairness setup: one split 50/50 and one on each path; paths of 10 Mbit/s each. */
    private static DcRunData threeFlows(long dcPerBin, long aPerBin, long bPerBin) {
        int bins = 200;
        long[] dc = constant(10, bins, dcPerBin), a = constant(5, bins, aPerBin), b = constant(0, bins - 20, bPerBin);
        long[] dcHalf = Arrays.stream(dc).map(x -> x / 2).toArray();
        double[] cap = new double[bins];
        Arrays.fill(cap, 10e6 / 8 * 0.1);
        long[] pathA = new long[bins], pathB = new long[bins];
        for (int i = 0; i < bins; i++) {
            pathA[i] = dcHalf[i] + a[i];
            pathB[i] = dcHalf[i] + (i < b.length ? b[i] : 0);
        }
        DcRunData.Reordering r = new DcRunData.Reordering(100, 60, 40, 30, 10, 2, 0, 0, 12, 5.0, 150.0, 199.0);
        return new DcRunData(BIN, List.of(
                new DcRunData.Flow(1, "flow 1 (dc)", "dc", dc, List.of(dcHalf, dcHalf), r),
                new DcRunData.Flow(2, "flow 2 (a)", "a", a, List.of(a, new long[0]), null),
                new DcRunData.Flow(3, "flow 3 (b)", "b", b, List.of(new long[0], b), null)),
                List.of(new DcRunData.Path("a", pathA, cap, 3), new DcRunData.Path("b", pathB, cap, 4)));
    }

    @Test
    void equalSharesGiveAnIndexOfOneOverTheCommonWindow() {
        DcRunSummary s = DcRunMetrics.compute(threeFlows(100_000, 100_000, 100_000), 0, 10 * BIN);
        // every flow active from bin 10 (the dc flow's start) to bin 180 (flow b's end)
        assertEquals(1.0, s.windowStartS(), 1e-9);
        assertEquals(18.0, s.windowEndS(), 1e-9);
        assertEquals(1.0, s.jfi(), 1e-12);
        // 100 000 bytes per 100 ms = 8 Mbit/s each
        for (DcRunSummary.FlowResult f : s.flows()) assertEquals(8.0, f.throughputMbps(), 1e-9);
        assertEquals(24.0, s.throughputMbps(), 1e-9);
        assertEquals(1.0, s.jfiWindowMin(), 1e-12);
        assertEquals(170 - 10 + 1, s.jfiSeries().length);
        assertEquals(0.5, s.flows().get(0).pathShare()[0], 1e-12);
        assertEquals(1.0, s.flows().get(1).pathShare()[0], 1e-12);
        // path a carries 4 + 8 = 12 Mbit/s of 10?  no: 50 000 + 100 000 bytes per bin = 12 Mbit/s against 10 of capacity
        DcRunSummary.PathResult a = s.paths().get(0);
        assertEquals(12.0, a.throughputMbps(), 1e-9);
        assertEquals(10.0, a.capacityMbps(), 1e-9);
        assertEquals(1.2, a.utilization(), 1e-9);
        assertEquals(1.0 / 3, a.flowShare()[0], 0.01);
        // on path a the dc flow sent 50 000 bytes per bin, flow a 100 000: J = 150² / (2 · (50² + 100²)) = 0.9
        assertEquals(0.9, a.jfi(), 1e-9);
    }

    @Test
    void unequalSharesLowerTheIndexAsTheFormulaSays() {
        DcRunSummary s = DcRunMetrics.compute(threeFlows(200_000, 100_000, 20_000), 0, 10 * BIN);
        assertEquals(JainFairness.index(16, 8, 1.6), s.jfi(), 1e-12);
        assertTrue(s.jfi() < 0.8);
    }

    @Test
    void skippingTheStartShortensTheWindow() {
        DcRunSummary s = DcRunMetrics.compute(threeFlows(100_000, 100_000, 100_000), 2_000_000_000L, 10 * BIN);
        assertEquals(3.0, s.windowStartS(), 1e-9);
    }

    @Test
    void aFlowThatReceivedNothingIsNoted() {
        DcRunData d = new DcRunData(BIN, List.of(new DcRunData.Flow(1, "f1", "dc", constant(0, 50, 1000), List.of(), null),
                new DcRunData.Flow(2, "f2", "a", new long[0], List.of(), null)), List.of());
        DcRunSummary s = DcRunMetrics.compute(d, 0, 10 * BIN);
        assertEquals(0.5, s.jfi(), 1e-12);
        assertTrue(s.note().contains("f2 received nothing"), s.note());
    }

    @Test
    void reportWritesSummaryTimelineAndFigures(@TempDir Path dir) throws Exception {
        DcRunData d = threeFlows(100_000, 100_000, 20_000);
        DcRunSummary s = DcRunMetrics.compute(d, 0, 10 * BIN);
        List<Path> files = DcRunReport.write(d, s, dir, 1_000_000_000L);
        for (String name : List.of("dc-summary.json", "dc-timeline.csv", "dc-throughput.png", "dc-path-a.png", "dc-path-b.svg",
                "dc-fairness.png", "dc-report.html")) {
            assertTrue(Files.size(dir.resolve(name)) > 0, name);
            assertTrue(files.contains(dir.resolve(name)), name);
        }
        JsonNode j = DcSummaryJson.read(dir.resolve("dc-summary.json"));
        assertEquals(s.jfi(), j.get("jfi").asDouble(), 1e-12);
        assertEquals(3, j.get("flows").size());
        assertEquals(40, j.get("flows").get(0).get("reordering").get("held").asLong());
        assertTrue(j.get("flows").get(1).get("reordering") == null);
        List<String> csv = Files.readAllLines(dir.resolve("dc-timeline.csv"));
        assertEquals("time_s,flow_1_bytes,flow_2_bytes,flow_3_bytes,path_a_bytes,path_a_flow_1_bytes,path_a_flow_2_bytes,"
                + "path_a_flow_3_bytes,path_a_capacity_bytes,path_b_bytes,path_b_flow_1_bytes,path_b_flow_2_bytes,"
                + "path_b_flow_3_bytes,path_b_capacity_bytes", csv.get(0));
        assertEquals(201, csv.size());
        assertNotNull(DcRunReport.text(s));
        assertTrue(DcRunReport.text(s).contains("JFI"));
    }
}
