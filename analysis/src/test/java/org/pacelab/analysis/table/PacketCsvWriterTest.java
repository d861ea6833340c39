package org.pacelab.analysis.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.Test;

class PacketCsvWriterTest {
    /** Trains of 3, 700 and 1 packets with client rows between them. */
    private static String write(int limit) throws IOException {
        StringWriter out = new StringWriter();
        PacketCsvWriter w = new PacketCsvWriter(out, limit);
        long frame = 0;
        int[] trains = {3, 700, 1};
        for (int t = 0; t < trains.length; t++) {
            for (int i = 0; i < trains[t]; i++) {
                w.serverRow(++frame, frame * 10, 1200, "1RTT", Long.toString(frame), i == 0 ? PacketCsvWriter.NONE : 10, t, -1,
                        i % 2 == 0 ? 5 : PacketCsvWriter.NONE, PacketCsvWriter.NONE);
                if (i % 50 == 7) {
                    w.clientRow(++frame, frame * 10, 40, "1RTT", "9");
                }
            }
            w.trainEnded(t, trains[t]);
        }
        w.finish();
        return out.toString();
    }

    @Test
    void longTrainsSpillToDiskAndComeOutTheSame() throws IOException {
        String inMemory = write(1 << 24);
        String spilled = write(200); // spills after a couple of rows
        assertEquals(inMemory, spilled);
        List<String> rows = inMemory.lines().toList();
        assertEquals(PacketCsvWriter.HEADER, rows.getFirst());
        assertEquals("1,10,s2c,1200,1RTT,1,,0,3,,5,", rows.get(1));
        assertEquals(700, rows.stream().filter(r -> r.contains(",s2c,") && r.split(",", -1)[8].equals("700")).count());
        assertEquals(1 + 704 + 14, rows.size()); // header, server rows, client rows (i = 7, 57, ..., 657 of the long train)
    }
}
