package org.pacelab.sim.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostTimingTest {

    @Test
    void theBundledCalibrationLoads() {
        HostTiming t = HostTiming.defaults();
        assertTrue(t.source().startsWith("pacelab sim calibrate on "), t.source());
        assertTrue(t.parkLateness().quantile(0.5) > t.parkTightLateness().quantile(0.5),
                "the default 50 us slack makes park later than park-tight");
        assertTrue(t.sendmsgNs() > 0 && t.buildFullNs() > 0);
    }

    @Test
    void theRealtimeCalibrationHasNoTimerSlack() {
        HostTiming rt = HostTiming.realtime();
        assertTrue(rt.parkLateness().quantile(0.5) < HostTiming.defaults().parkLateness().quantile(0.5),
                "real-time threads get no timer slack");
        assertEquals(rt, HostTiming.named("realtime"));
        assertEquals(HostTiming.ideal(), HostTiming.named("ideal"));
        assertEquals(null, HostTiming.named("fast"));
    }

    @Test
    void theBundledModelsReadWithoutAnObjectMapperAreTheMappersTrees() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        for (String r : List.of("/org/pacelab/sim/host-timing-default.json", "/org/pacelab/sim/host-timing-realtime.json")) {
            JsonNode light;
            JsonNode full;
            try (InputStream in = HostTiming.class.getResourceAsStream(r)) {
                light = HostTiming.readTree(in);
            }
            try (InputStream in = HostTiming.class.getResourceAsStream(r)) {
                full = mapper.readTree(in);
            }
            assertEquals(full, light, r);
            assertEquals(HostTiming.fromJson(full, r), HostTiming.fromJson(light, r), r);
        }
        try (InputStream in = HostTiming.class.getResourceAsStream("/org/pacelab/sim/host-timing-default.json")) {
            assertEquals(HostTiming.fromJson(mapper.readTree(in), "default"), HostTiming.defaults());
        }
        // every kind of value, a repeated field (the last value, in the first one's place), nesting
        String text = "{\"a\":[1,-2,3000000000,123456789012345678901234567890,1.5,-0.0,1e300],\"b\":\"x\\u00e9\","
                + "\"c\":true,\"d\":false,\"e\":null,\"f\":{},\"g\":[],\"a\":{\"x\":[[],{\"y\":2}]}}";
        JsonNode light = HostTiming.readTree(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        assertEquals(mapper.readTree(text), light);
        assertEquals(mapper.writeValueAsString(mapper.readTree(text)), mapper.writeValueAsString(light));
        assertThrows(IOException.class, () -> HostTiming.readTree(new ByteArrayInputStream(new byte[0])));
    }

    @Test
    void writtenFilesReadBackEqual(@TempDir Path dir) throws IOException {
        HostTiming t = HostTiming.defaults();
        Path f = dir.resolve("h.json");
        t.write(f);
        assertEquals(t, HostTiming.load(f));
    }

    @Test
    void costsAreInterpolatedBySize() {
        HostTiming t = new HostTiming("t", EmpiricalDistribution.constant(0), EmpiricalDistribution.constant(0),
                EmpiricalDistribution.constant(0), EmpiricalDistribution.constant(0), EmpiricalDistribution.constant(0),
                EmpiricalDistribution.constant(0), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1000, 2352, 500, 500, 0);
        assertEquals(1000, t.buildCost(40));
        assertEquals(2352, t.buildCost(1452));
        assertEquals(2352, t.buildCost(9000));
        assertEquals(1000 + 1352 * (776 - 100) / 1352, t.buildCost(776));
        assertEquals(500, t.processCost(776));
    }

    @Test
    void badFilesGetOneSentenceNamingTheField(@TempDir Path dir) throws IOException {
        String good = HostTiming.defaults().toJson().toString();
        assertTrue(message(dir, "a.json", good.replace("\"sendmsg_ns\"", "\"sendmsg_us\""))
                .startsWith(dir.resolve("a.json") + ": unknown field 'sendmsg_us'; valid fields: source, park_lateness_ns,"));
        assertEquals(dir.resolve("b.json") + ": field loop_ns must be an integer >= 0 (ns), found -5",
                message(dir, "b.json", good.replaceFirst("\"loop_ns\":[0-9]+", "\"loop_ns\":-5")));
        assertTrue(message(dir, "c.json", good.replaceFirst("\"spin_lateness_ns\":\\[[0-9]+,", "\"spin_lateness_ns\":[99999999999,"))
                .contains("spin_lateness_ns[1]"));
        assertTrue(message(dir, "d.json", "{ not json").startsWith(dir.resolve("d.json") + ":1: not valid JSON"));
    }

    private static String message(Path dir, String name, String text) throws IOException {
        Path f = Files.writeString(dir.resolve(name), text);
        return assertThrows(IOException.class, () -> HostTiming.load(f)).getMessage();
    }
}
