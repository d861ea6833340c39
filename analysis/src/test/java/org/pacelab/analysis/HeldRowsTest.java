package org.pacelab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pacelab.analysis.table.PacketCsvWriter;

class HeldRowsTest {
    /** Trains of server rows (QUIC and not) with client rows between them, each train's end, as a pass holds them. */
    private static List<AnalysisPass.Held> held(int trains) {
        List<AnalysisPass.Held> ops = new ArrayList<>();
        long frame = 0;
        for (int t = 0; t < trains; t++) {
            int length = 1 + t % 40;
            for (int i = 0; i < length; i++) {
                boolean quic = t % 5 != 4;
                ops.add(new AnalysisPass.Held(AnalysisPass.SERVER, ++frame, frame * 1000, 1252, quic ? "1RTT" : "tcp",
                        Long.toString(frame), i == 0 ? -1 : 120_000 + i, t, quic ? 0 : i % 2, quic, frame, null, null, null));
                if (i % 7 == 3) {
                    ops.add(new AnalysisPass.Held(AnalysisPass.CLIENT, ++frame, frame * 1000, 40, "1RTT", "9", 0, 0, 0,
                            true, -1, null, null, null));
                }
            }
            ops.add(new AnalysisPass.Held(AnalysisPass.TRAIN, 0, 0, 0, null, null, length, t, 0, false, -1, null, null, null));
        }
        return ops;
    }

    /** Send delays and target gaps as a replay finds them: some rows without either. */
    private static long[] found(int rows) {
        long[] found = new long[2 * rows];
        for (int i = 0; i < rows; i++) {
            found[2 * i] = i % 3 == 0 ? PacketCsvWriter.NONE : i * 7 - 500;
            found[2 * i + 1] = i % 4 == 0 ? PacketCsvWriter.NONE : 100_000 + i;
        }
        return found;
    }

    /** The table the pass writes with its rows on its own thread. */
    private static String synchronous(List<AnalysisPass.Held> ops, long[] found) throws IOException {
        StringWriter out = new StringWriter();
        PacketCsvWriter csv = new PacketCsvWriter(out);
        for (int i = 0; i < ops.size(); i++) {
            AnalysisPass.writeRow(ops.get(i), found[2 * i], found[2 * i + 1], csv);
        }
        csv.finish();
        return out.toString();
    }

    @Test
    void rowsPublishedInPiecesMakeTheSameTable() throws IOException {
        List<AnalysisPass.Held> ops = held(400);
        long[] found = found(ops.size());
        StringWriter out = new StringWriter();
        PacketCsvWriter csv = new PacketCsvWriter(out);
        HeldRows rows = HeldRows.start(ops, found, csv);
        for (int done = 0; done < ops.size(); ) {
            done = Math.min(ops.size(), done + 1 + done % 977); // uneven pieces
            rows.publish(done);
        }
        rows.await();
        csv.finish();
        String expected = synchronous(ops, found);
        assertEquals(expected, out.toString());
        assertTrue(expected.lines().count() > ops.size() / 2, "the table has the rows");
        rows.stop(); // after the end: nothing to stop
    }

    @Test
    void aWriteFailureIsThrownByAwait() {
        List<AnalysisPass.Held> ops = held(50);
        Writer failing = new Writer() {
            private int writes;

            @Override
            public void write(char[] cbuf, int off, int len) throws IOException {
                if (++writes > 2) { // after the header
                    throw new IOException("No space left on device");
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        IOException e = assertThrows(IOException.class, () -> {
            HeldRows rows = HeldRows.start(ops, found(ops.size()), new PacketCsvWriter(failing));
            rows.publish(ops.size());
            rows.await();
        });
        assertEquals("No space left on device", e.getMessage());
    }

    @Test
    void stopEndsAThreadWaitingForRows() throws IOException {
        List<AnalysisPass.Held> ops = held(10);
        HeldRows rows = HeldRows.start(ops, found(ops.size()), new PacketCsvWriter(new StringWriter()));
        rows.publish(3); // then the replay failed
        rows.stop();
        assertFalse(threadAlive(), "packets-csv ended");
        assertThrows(InterruptedIOException.class, rows::await, "a stopped table is not finished");
    }

    private static boolean threadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("packets-csv") && t.isAlive());
    }
}
