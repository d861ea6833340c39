package org.pacelab.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {
    private static final long GIB = 1L << 30;

    private static LoopbackBench.Run run(String stack, int rep, double seconds, double clientCpu, double serverCpu) {
        return new LoopbackBench.Run(stack, rep, null, GIB, (long) (seconds * 1e9), (long) (clientCpu * 1e9),
                (long) (serverCpu * 1e9), 400_000_000L, 1.0, 2.0);
    }

    @Test
    void statisticsAreMedianMeanAndSampleStd() {
        BenchReport.Stats s = BenchReport.Stats.of(List.of(3.0, 1.0, 2.0, 10.0));
        assertEquals(4, s.n());
        assertEquals(2.5, s.median(), 1e-12);
        assertEquals(4.0, s.mean(), 1e-12);
        assertEquals(Math.sqrt((1 + 9 + 4 + 36) / 3.0), s.std(), 1e-12);
        assertEquals(1.0, s.min());
        assertEquals(10.0, s.max());
        assertEquals(0, BenchReport.Stats.of(List.of()).n());
    }

    @Test
    void goodputAndCpuPerGibComeFromTheRun() {
        LoopbackBench.Run r = run("pacelab", 1, 4.0, 3.0, 2.0);
        assertEquals(8 * GIB / 4.0 / 1e6, r.mbitPerSecond(), 1e-6);
        assertEquals(3.0, r.clientCpuPerGib(), 1e-9);
        assertEquals(2.0, r.serverCpuPerGib(), 1e-9);
    }

    @Test
    void summaryGivesRatiosOfMediansAndSkipsFailedRuns() {
        List<LoopbackBench.Run> runs = List.of(run("pacelab", 1, 8, 4, 4), run("ngtcp2", 1, 4, 2, 1), run("pacelab", 2, 4, 2, 2),
                run("ngtcp2", 2, 4, 2, 1), new LoopbackBench.Run("pacelab", 3, "the client exited with status 1", 0, 0, 0, 0, 0, 3.0, 3.5));
        List<BenchReport.StackSummary> s = BenchReport.summarize(List.of("pacelab", "ngtcp2"), runs);
        assertEquals(3, s.get(0).runs());
        assertEquals(1, s.get(0).failed());
        assertEquals(2, s.get(0).goodput().n());
        String text = BenchReport.summary(s, List.of("pacelab"), runs);
        // medians: pacelab 6 s -> goodput 3/4 of ngtcp2's 4 s; client CPU 3 vs 2; server CPU 3 vs 1
        assertTrue(text.contains("ratio pacelab / ngtcp2 (medians): goodput 0.75, client CPU 1.50, server CPU 3.00"), text);
        assertTrue(text.contains("load average (1 min) around the runs: 1.00 to 3.50"), text);
        assertTrue(BenchReport.runLine(runs.get(4)).contains("FAILED: the client exited with status 1"));
    }

    @Test
    void jsonHoldsEveryRun(@TempDir Path dir) throws Exception {
        List<LoopbackBench.Run> runs = List.of(run("pacelab", 1, 8, 4, 4), run("ngtcp2", 1, 4, 2, 1));
        Path f = dir.resolve("bench.json");
        BenchReport.writeJson(f, Map.of("size_bytes", GIB), BenchReport.summarize(List.of("pacelab", "ngtcp2"), runs), runs);
        JsonNode j = new ObjectMapper().readTree(Files.readString(f));
        assertEquals(2, j.get("runs").size());
        assertEquals(4.0, j.get("runs").get(0).get("client_cpu_s_per_gib").asDouble(), 1e-9);
        assertEquals("ngtcp2", j.get("stacks").get(1).get("stack").asText());
    }

    @Test
    void downloadsAreComparedByteForByte(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        LoopbackBench.writeRandomFile(a, 5_000_000);
        Files.copy(a, b);
        assertNull(LoopbackBench.compare(a, b));
        byte[] bytes = Files.readAllBytes(b);
        bytes[4_321_000] ^= 1;
        Files.write(b, bytes);
        assertEquals("the downloaded file differs from the original at byte 4321000", LoopbackBench.compare(a, b));
        Files.write(b, new byte[10]);
        assertEquals("the downloaded file has 10 bytes, not 5000000", LoopbackBench.compare(a, b));
        assertEquals("the client wrote no file c", LoopbackBench.compare(a, dir.resolve("c")));
    }
}
