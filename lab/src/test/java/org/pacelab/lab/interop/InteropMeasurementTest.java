package org.pacelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.lab.host.Host;
import org.pacelab.lab.interop.QuicPacket.Type;

/**
 * The runner's goodput measurement: the statistics (mean, sample standard deviation), one repetition's goodput from
 * the file's bytes and the server's first and last 1-RTT packet, and a measurement's cell through a fake runner that
 * serves hand-made traces: its repetitions, each in its own directory, its result.json, the matrix's table, resuming,
 * and the stop at the first repetition that fails.
 */
class InteropMeasurementTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final InteropMatrixTest.Fake a = new InteropMatrixTest.Fake("a", Set.of("hq-interop"), Set.of());
    private final InteropEndpoints registry = new InteropEndpoints(List.of(a));
    /** Per repetition run by the fake: the server's 1-RTT span in ms, or a negative number for a corrupted download. */
    private final List<Long> spansMs = new ArrayList<>();
    private int runs;

    @Test
    void statisticsAreTheMeanAndTheSampleStandardDeviation() {
        GoodputStatistics s = GoodputStatistics.of(List.of(2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0));
        assertEquals(8, s.n());
        assertEquals(5.0, s.mean(), 1e-12);
        assertEquals(Math.sqrt(32.0 / 7), s.std(), 1e-12);
        assertEquals("5 ± 2 kbps (n 8)", s.describe("kbps"));
        GoodputStatistics one = GoodputStatistics.of(List.of(9000.0));
        assertEquals(1, one.n());
        assertTrue(Double.isNaN(one.std()));
        assertEquals("9000 kbps (n 1, no standard deviation)", one.describe("kbps"));
    }

    @Test
    void goodputIsBitsOverMillisecondsBetweenTheFirstAndLastServerPacket() {
        Goodput g = new Goodput(10L << 20, 1_000_000_000L, 9_000_000_000L);
        assertEquals(8.0 * (10L << 20) / 8000, g.kbps(), 1e-9);
        assertEquals(8.0, g.seconds(), 1e-12);
    }

    @Test
    void theGoodputMeasurementIsTheRunnersAndCrosstrafficIsExplained() {
        InteropMeasurement g = InteropMeasurements.get("goodput").orElseThrow();
        assertEquals(List.of("goodput"), InteropMeasurements.names());
        assertEquals(5, g.repetitions());
        assertEquals("kbps", g.unit());
        assertEquals("G", g.abbreviation());
        assertEquals(List.of(10L << 20), g.repetition().files().sizes());
        assertEquals("transfer", g.repetition().serverTestname());
        assertEquals("transfer", g.repetition().clientTestname());
        assertEquals(60, g.repetition().timeoutSeconds());
        assertTrue(InteropMeasurements.notHere("crosstraffic").contains("UDP relay"));
        assertNull(InteropMeasurements.notHere("goodput"));
    }

    @Test
    void aCellRunsEveryRepetitionStoresThemAndIsKeptWhenResumed() throws Exception {
        InteropMeasurement m = InteropMeasurements.get("goodput").orElseThrow().withRepetitions(3);
        spansMs.addAll(List.of(8000L, 10000L, 9000L));
        List<CellResult> cells = matrix().run(plan(m));
        assertEquals(3, runs);
        CellResult cell = cells.getFirst();
        assertEquals("goodput", cell.testCase());
        assertTrue(cell.result().ok(), cell.result().toString());
        Path cellDir = dir.resolve("runs/a_a/goodput");
        for (int i = 1; i <= 3; i++) {
            assertTrue(Files.isRegularFile(cellDir.resolve("rep-" + i + "/tap-made-by-fake")), "repetition " + i + " ran in its own directory");
        }
        JsonNode stored = JSON.readTree(Files.readString(cellDir.resolve("result.json")));
        JsonNode meas = stored.get("measurement");
        assertEquals(3, meas.get("n").asInt());
        assertEquals(3, meas.get("repetitions").size());
        List<Double> expected = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            JsonNode r = meas.get("repetitions").get(i);
            double kbps = 8.0 * (10L << 20) / spansMs.get(i);
            expected.add(kbps);
            assertEquals(10L << 20, r.get("bytes").asLong());
            assertEquals(spansMs.get(i) / 1000.0, r.get("transfer_seconds").asDouble(), 1e-9);
            assertEquals(Math.round(kbps * 10) / 10.0, r.get("goodput").asDouble(), 1e-9);
            assertEquals("rep-" + (i + 1), r.get("directory").asText());
        }
        GoodputStatistics s = GoodputStatistics.of(expected);
        assertEquals(Math.round(s.mean() * 10) / 10.0, meas.get("mean").asDouble(), 1e-9);
        assertEquals(Math.round(s.std() * 10) / 10.0, meas.get("std").asDouble(), 1e-9);
        assertEquals(s.describe("kbps"), cell.result().reason());
        assertTrue(stored.get("provenance").has("load_start"), stored.toString());
        CellResult back = MatrixStore.parse(cellDir.resolve("result.json"));
        assertEquals(cell.result(), back.result(), "the cell reads back as it was stored");
        assertEquals(cell.provenance(), back.provenance());
        assertEquals(cell.directory(), back.directory());

        String md = Files.readString(dir.resolve("matrix.md"));
        assertTrue(md.contains("### Measurement goodput (G)"), md);
        assertTrue(md.contains("| **a** | " + s.describe("kbps") + " |"), md);
        assertFalse(md.contains("Cases: "), "no cases ran, so there is no cases table: " + md);
        JsonNode matrix = JSON.readTree(Files.readString(dir.resolve("matrix.json")));
        assertEquals("goodput", matrix.get("measurements").get(0).get("name").asText());
        assertEquals(3, matrix.get("measurements").get(0).get("repetitions").asInt());
        String html = Files.readString(dir.resolve("index.html"));
        assertTrue(html.contains("<h2>Measurement goodput (G)</h2>"));
        assertFalse(html.contains("<h2>Cases</h2>"), "no cases ran, so the page has no cases grid: " + html);

        runs = 0;
        matrix().run(plan(m));
        assertEquals(0, runs, "a finished measurement is kept when the matrix is resumed");
    }

    @Test
    void theFirstRepetitionThatFailsEndsTheMeasurementWithItsReason() throws Exception {
        InteropMeasurement m = InteropMeasurements.get("goodput").orElseThrow().withRepetitions(3);
        spansMs.addAll(List.of(8000L, -1L, 9000L));
        CellResult cell = matrix().run(plan(m)).getFirst();
        assertEquals(2, runs);
        assertEquals(CheckResult.failed("repetition 2 of 3: file a differs from the served one"), cell.result());
        JsonNode meas = JSON.readTree(Files.readString(dir.resolve("runs/a_a/goodput/result.json"))).get("measurement");
        assertTrue(meas.get("n").isNull());
        assertEquals(2, meas.get("repetitions").size());
        assertEquals("failed", meas.get("repetitions").get(1).get("result").asText());
        String md = Files.readString(dir.resolve("matrix.md"));
        assertTrue(md.contains("| **a** | ✗ failed: repetition 2 of 3: file a differs from the served one |"), md);
    }

    private InteropMatrix.Plan plan(InteropMeasurement m) {
        return new InteropMatrix.Plan(List.of(a), List.of(a), List.of(), 1, InteropMatrix.Rerun.NONE, List.of(m));
    }

    private InteropMatrix matrix() {
        return new InteropMatrix(dir, null, new Host(), "tshark", new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), registry, this::fakeRun, Clock.fixed(Instant.parse("2026-12-03T08:00:00Z"), ZoneOffset.UTC),
                "abc1234");
    }

    /** One handshake, the server's 1-RTT packets from 1 s on over the span, and the file intact unless the span is negative. */
    private CheckResult fakeRun(InteropCase c, InteropEndpoint s, InteropEndpoint cl, String alpn, Path d, long seed)
            throws java.io.IOException, InterruptedException {
        long span = spansMs.get(runs++);
        Files.writeString(d.resolve("tap-made-by-fake"), "");
        Path www = Files.createDirectories(d.resolve("www"));
        Path downloads = Files.createDirectories(d.resolve("downloads"));
        Files.write(www.resolve("a"), new byte[] {1, 2, 3});
        Files.write(downloads.resolve("a"), span < 0 ? new byte[] {1, 2, 4} : new byte[] {1, 2, 3});
        Path keys = d.resolve("keys.log");
        Files.writeString(keys, "SERVER_HANDSHAKE_TRAFFIC_SECRET 00 11\n");
        long t0 = 1_000_000_000L;
        List<QuicPacket> packets = List.of(
                packet(1, 0, false, Type.INITIAL, "quic.scid", "cc", "quic.version", "0x00000001"),
                packet(2, 1_000_000, true, Type.INITIAL, "quic.scid", "s1", "quic.version", "0x00000001"),
                packet(3, t0, true, Type.ONE_RTT),
                packet(4, t0 + 1_000_000, false, Type.ONE_RTT),
                packet(5, t0 + Math.abs(span) * 1_000_000L, true, Type.ONE_RTT));
        return c.check().check(new CaseRun(c, www, downloads, List.of("a"), keys, k -> new Trace(packets, false)));
    }

    private static QuicPacket packet(int frame, long timeNs, boolean fromServer, Type type, String... kv) {
        Map<String, List<String>> f = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            f.put(kv[i], List.of(kv[i + 1]));
        }
        return new QuicPacket(new QuicPacket.Datagram(frame, timeNs, fromServer, false, fromServer ? "s" : "c", 1000,
                fromServer ? "c" : "s", 2000, 0, 1208), type, f);
    }
}
