package org.pacelab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.summary.SummaryJson;

/**
 * The slow-start metrics of a simulated run's summary: the end of slow start from the server's qlog, the drops
 * split at it from the event log, the path's capacity from the link, the goodput of the first 5 s.
 */
class SlowStartMetricsTest {
    @TempDir
    Path dir;

    private Summary run(String name, String... options) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--seed", "2");
        for (int i = 0; i < options.length; i += 2) {
            o.put(options[i], options[i + 1]);
        }
        SimResult r = Simulation.run(SimOptions.parse(o, dir.resolve(name)));
        assertTrue(r.completed(), name + ": " + r.outcome());
        return SummaryJson.read(dir.resolve(name).resolve("summary.json"));
    }

    private static long integer(Summary s, SummaryField f) {
        assertNotNull(s.get(f), f.jsonName() + ": " + s.reason(f));
        return ((Number) s.get(f)).longValue();
    }

    private static double number(Summary s, SummaryField f) {
        assertNotNull(s.get(f), f.jsonName() + ": " + s.reason(f));
        return ((Number) s.get(f)).doubleValue();
    }

    @Test
    void standardSlowStartOnQuicStepsOvershootsAndItsDropsAreCountedOnBothSides() throws Exception {
        Summary s = run("qs", "--preset", "quic-steps", "--size", "3MiB", "--slow-start", "standard");
        // the shared 143-packet limit (counted as 1500 bytes each) plus 20 ms of the uplink at 40 Mbit/s
        assertEquals(143 * 1500 + 100_000, integer(s, SummaryField.PATH_CAPACITY_BYTES));
        assertEquals("recovery", s.get(SummaryField.SLOW_START_EXIT_STATE), "standard slow start ends with a loss");
        double exit = number(s, SummaryField.SLOW_START_EXIT_S);
        assertTrue(exit > 0.2 && exit < 1, "exit after " + exit + " s");
        long cwnd = integer(s, SummaryField.SLOW_START_EXIT_CWND_BYTES);
        assertEquals((double) cwnd / (143 * 1500 + 100_000), number(s, SummaryField.SLOW_START_OVERSHOOT), 1e-9);
        assertTrue(number(s, SummaryField.SLOW_START_OVERSHOOT) > 1.3, "the window had outgrown the path");
        long ss = integer(s, SummaryField.DROPS_SLOW_START);
        long after = integer(s, SummaryField.DROPS_AFTER_SLOW_START);
        assertEquals(integer(s, SummaryField.DROPS), ss + after);
        assertTrue(ss > 50, ss + " drops of packets slow start sent");
        // 3 MiB at 40 Mbit/s take well under 5 s
        assertNull(s.get(SummaryField.GOODPUT_5S_MBPS));
        assertTrue(s.reason(SummaryField.GOODPUT_5S_MBPS).contains("less than 5 s"), s.reason(SummaryField.GOODPUT_5S_MBPS));
    }

    @Test
    void aLongerTransferHasTheGoodputOfItsFirstFiveSeconds() throws Exception {
        Summary s = run("slow", "--preset", "none", "--down", "rate=10mbit delay=10ms queue=1bdp", "--up", "delay=10ms",
                "--size", "8MiB");
        assertEquals(Math.round(10e6 / 8 * 0.02) * 2, integer(s, SummaryField.PATH_CAPACITY_BYTES), "BDP plus one BDP");
        double first = number(s, SummaryField.GOODPUT_5S_MBPS);
        double whole = number(s, SummaryField.GOODPUT_APP_MBPS);
        assertTrue(first > 8 && first < 10, "first 5 s: " + first + " Mbit/s");
        assertTrue(first < whole + 0.5, "the first seconds include the handshake and slow start: " + first + " vs " + whole);
    }
}
