package org.pacelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    void etaUsesThePlanEstimateUntilARunFinishesThenTheMeasuredMean() {
        Progress p = new Progress(new PrintStream(new ByteArrayOutputStream()), false, 10, 2, 30);
        assertEquals(8 * 30, p.etaSeconds(), 1e-9);
        p.finished("a", 10, "ok");
        p.finished("b", 20, "ok");
        assertEquals(6 * 15, p.etaSeconds(), 1e-9);
        p.parallelism(3);
        assertEquals(6 * 15 / 3.0, p.etaSeconds(), 1e-9);
    }

    @Test
    void lineShowsBarCountsFailuresAndTheCurrentRun() {
        Progress p = new Progress(new PrintStream(new ByteArrayOutputStream()), false, 4, 1, 10);
        p.failed("x #1", 1, "boom");
        p.started("ngtcp2 #2");
        String line = p.line();
        assertTrue(line.startsWith("[######------------------] 1/4 runs, 1 failed | elapsed "), line);
        assertTrue(line.endsWith(" | ETA 30s | ngtcp2 #2"), line);
    }

    @Test
    void withoutATerminalEachFinishedRunIsOneLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, 3, 0, 10);
        p.finished("pacelab #1", 6.25, "goodput 37 Mbit/s");
        p.failed("pacelab #2", 1.5, "client exited with status 1");
        assertEquals("[1/3] pacelab #1: goodput 37 Mbit/s (6.3 s)\npacelab #2: FAILED after 1.5 s: client exited with status 1\n",
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void durationsReadLikeClocks() {
        assertEquals("59s", Progress.duration(59.2));
        assertEquals("2m05s", Progress.duration(125));
        assertEquals("1h01m", Progress.duration(3660));
    }
}
