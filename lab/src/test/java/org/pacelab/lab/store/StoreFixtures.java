package org.pacelab.lab.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.pacelab.analysis.summary.Summary;
import org.pacelab.analysis.summary.SummaryField;
import org.pacelab.analysis.table.PacketCsvWriter;
import org.pacelab.analysis.table.TimelineCsv;

/** Small hand-made run outputs: a per-packet table, a timeline and a summary. */
final class StoreFixtures {
    private StoreFixtures() {}

    /**
     * Server packets at 0, 10, 20 µs (one train of 3), 500 µs (alone), 1000, 1050 µs (a train of 2); gaps 10, 10,
     * 480, 500, 50 µs; send delays 1, 2, 3 µs on the first three.
     */
    static Path packets(Path dir) throws IOException {
        String csv = PacketCsvWriter.HEADER + "\n"
                + "1,1000,c2s,1200,initial,0,,,,,,\n"
                + "2,2000,s2c,1300,1RTT,0,,0,3,,1000,\n"
                + "3,12000,s2c,1300,1RTT,1,10000,0,3,,2000,\n"
                + "4,22000,s2c,1300,1RTT,2,10000,0,3,,3000,\n"
                + "5,30000,c2s,60,1RTT,0,,,,,,\n"
                + "6,502000,s2c,1300,1RTT,3,480000,1,1,,,\n"
                + "7,1002000,s2c,1300,1RTT,4,500000,2,2,,,\n"
                + "8,1052000,s2c,1300,1RTT,5,50000,2,2,,,\n";
        Path f = dir.resolve("packets.csv");
        Files.writeString(f, csv);
        return f;
    }

    static Path timeline(Path dir) throws IOException {
        Path f = dir.resolve("timeline.csv");
        Files.writeString(f, TimelineCsv.header() + "\n0.1,14520,1000,850000,40,40,41,\n0.2,29040,2000,1700000,41,40,42,20000\n");
        return f;
    }

    static Summary summary(double goodput) {
        Summary s = new Summary();
        s.put(SummaryField.PACKETS, 6L);
        s.put(SummaryField.PROTOCOL, "quic");
        s.put(SummaryField.GOODPUT_WIRE_MBPS, goodput);
        s.put(SummaryField.CAPTURE_TRUNCATED, false);
        s.unavailable(SummaryField.DROPS, "no emulator event log given (--events)");
        return s;
    }

    static FinishedRun run(String key, String config, int rep, Path dir, double goodput, boolean tables) throws IOException {
        return new FinishedRun(key, config, rep, rep, 1, Instant.parse("2025-01-01T00:00:00Z"), 3.5, 2.5, 1 << 20, dir,
                summary(goodput), tables ? packets(dir) : null, tables ? timeline(dir) : null);
    }
}
