package org.pacelab.sim.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pacelab.analysis.qlog.CongestionTimeline;
import org.pacelab.analysis.qlog.QlogTrace;
import org.pacelab.analysis.table.TimelineCsv;

class TimelineAheadTest {
    @TempDir
    Path dir;

    private static CongestionTimeline timeline(int points, double scale) {
        CongestionTimeline t = new CongestionTimeline();
        int columns = CongestionTimeline.Column.values().length;
        for (int i = 0; i < points; i++) {
            double[] v = new double[columns];
            for (int c = 0; c < columns; c++) {
                v[c] = c == 3 ? Double.NaN : (i + 1) * scale / (c + 1);
            }
            t.add(i / 7.0, v);
        }
        return t;
    }

    private static QlogTrace trace(CongestionTimeline t) {
        return new QlogTrace(Path.of("server.sqlog"), "server", Set.of("01"), 0, null, 0, 0, t, 0, List.of(), false, 0, null, null);
    }

    /** The bytes TimelineCsv.write puts into a file for t. */
    private byte[] expected(CongestionTimeline t, String name) throws IOException {
        Path f = dir.resolve("expected-" + name);
        TimelineCsv.write(t, f);
        return Files.readAllBytes(f);
    }

    @Test
    void theLargestTimelinesAreRenderedAheadAndEveryTimelineIsWrittenTheSame() throws IOException {
        CongestionTimeline a = timeline(3_000, 1.5);
        CongestionTimeline b = timeline(3_000, 2.25); // as many points as a: either can be the analysis's
        CongestionTimeline small = timeline(20, 3.0);
        TimelineAhead ahead = new TimelineAhead();
        ahead.start(List.of(trace(small), trace(a), trace(b)));
        assertArrayEquals(expected(a, "a"), ahead.rendered(a));
        assertArrayEquals(expected(b, "b"), ahead.rendered(b));
        assertNull(ahead.rendered(small), "only the timelines with the most points are rendered ahead");
        assertNull(ahead.rendered(timeline(3_000, 1.5)), "another timeline with the same points is not a's");
        for (CongestionTimeline t : List.of(a, b, small)) {
            Path f = dir.resolve("timeline-" + System.identityHashCode(t) + ".csv");
            ahead.write(t, f);
            assertArrayEquals(expected(t, "again"), Files.readAllBytes(f));
        }
    }

    @Test
    void withoutPointsOrTracesNothingIsRenderedAndTheFileIsWrittenAsBefore() throws IOException {
        CongestionTimeline empty = new CongestionTimeline();
        TimelineAhead ahead = new TimelineAhead();
        ahead.start(List.of(trace(empty)));
        assertNull(ahead.rendered(empty));
        Path f = dir.resolve("timeline.csv");
        ahead.write(empty, f);
        assertArrayEquals(expected(empty, "empty"), Files.readAllBytes(f));

        TimelineAhead never = new TimelineAhead(); // the analysis never read traces
        CongestionTimeline t = timeline(10, 1.0);
        assertNull(never.rendered(t));
        never.write(t, f);
        assertArrayEquals(expected(t, "t"), Files.readAllBytes(f));
    }

    @Test
    void aSecondStartIsIgnored() {
        CongestionTimeline first = timeline(10, 1.0);
        CongestionTimeline second = timeline(10, 2.0);
        TimelineAhead ahead = new TimelineAhead();
        ahead.start(List.of(trace(first)));
        ahead.start(List.of(trace(second)));
        assertNotNull(ahead.rendered(first));
        assertNull(ahead.rendered(second));
    }
}
