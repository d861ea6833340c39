package org.pacelab.analysis.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.qlog.CongestionTimeline;

class TimelineCsvRenderTest {
    @TempDir
    Path dir;

    /** Points with whole, fractional, huge and absent (NaN) values. */
    static CongestionTimeline timeline(int points, long seed) {
        java.util.Random r = new java.util.Random(seed);
        CongestionTimeline t = new CongestionTimeline();
        int columns = CongestionTimeline.Column.values().length;
        for (int i = 0; i < points; i++) {
            double[] v = new double[columns];
            for (int c = 0; c < columns; c++) {
                v[c] = switch (r.nextInt(4)) {
                    case 0 -> Double.NaN;
                    case 1 -> r.nextInt(1_000_000);
                    case 2 -> r.nextDouble() * 1e3;
                    default -> 1e16 * (1 + r.nextDouble());
                };
            }
            t.add(i * 0.001 + r.nextDouble() * 1e-4, v);
        }
        return t;
    }

    @Test
    void renderedBytesAreTheFileTheTimelineWrites() throws IOException {
        for (int points : new int[] {0, 1, 5_000}) {
            CongestionTimeline t = timeline(points, points);
            Path written = dir.resolve("written-" + points + ".csv");
            TimelineCsv.write(t, written);
            byte[] rendered = TimelineCsv.render(t);
            assertArrayEquals(Files.readAllBytes(written), rendered);
            Path fromBytes = dir.resolve("rendered-" + points + ".csv");
            TimelineCsv.write(rendered, fromBytes);
            assertArrayEquals(Files.readAllBytes(written), Files.readAllBytes(fromBytes));
            assertEquals(points + 1, Files.readAllLines(fromBytes).size(), "the header and one line per point");
        }
    }
}
