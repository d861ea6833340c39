package org.pacelab.analysis.table;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.pacelab.analysis.io.AtomicFiles;
import org.pacelab.analysis.qlog.CongestionTimeline;

/** The congestion-control timeline as CSV: {@code time_s} then one column per {@link CongestionTimeline.Column}. */
public final class TimelineCsv {
    private static final CongestionTimeline.Column[] COLUMNS = CongestionTimeline.Column.values();

    private TimelineCsv() {}

    public static String header() {
        StringBuilder sb = new StringBuilder("time_s");
        for (CongestionTimeline.Column c : COLUMNS) {
            sb.append(',').append(c.csvName());
        }
        return sb.toString();
    }

    public static void write(CongestionTimeline t, Path file) throws IOException {
        AtomicFiles.writeText(file, w -> write(t, w));
    }

    /**
     * The bytes {@link #write(CongestionTimeline, Path)} puts into a file for {@code t} (UTF-8, as it encodes them), so
     * that a thread can make them while another does something else; {@link #write(byte[], Path)} writes them.
     */
    public static byte[] render(CongestionTimeline t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 100 * t.size());
        try {
            Writer w = new OutputStreamWriter(bytes, StandardCharsets.UTF_8);
            write(t, w);
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not thrown: the stream is in memory
        }
        return bytes.toByteArray();
    }

    /** Writes {@code rendered} ({@link #render}'s bytes) to {@code file} as {@link #write(CongestionTimeline, Path)} does. */
    public static void write(byte[] rendered, Path file) throws IOException {
        AtomicFiles.write(file, out -> out.write(rendered));
    }

    public static void write(CongestionTimeline t, Writer w) throws IOException {
        w.write(header());
        w.write('\n');
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.size(); i++) {
            sb.setLength(0);
            sb.append(t.time(i));
            for (CongestionTimeline.Column c : COLUMNS) {
                sb.append(',');
                double v = t.value(c, i);
                if (!Double.isNaN(v)) {
                    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                        sb.append((long) v);
                    } else {
                        sb.append(v);
                    }
                }
            }
            sb.append('\n');
            w.append(sb);
        }
    }

    public static CongestionTimeline read(Path file) throws IOException {
        CongestionTimeline t = new CongestionTimeline();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = r.readLine();
            if (header == null || !header.strip().equals(header())) {
                throw new IOException(file + ":1: expected the header " + header());
            }
            String line;
            long lineNo = 1;
            double[] v = new double[COLUMNS.length];
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isEmpty()) {
                    continue;
                }
                String[] f = line.split(",", -1);
                if (f.length != COLUMNS.length + 1) {
                    throw new IOException(file + ":" + lineNo + ": expected " + (COLUMNS.length + 1) + " columns, found " + f.length);
                }
                try {
                    double time = Double.parseDouble(f[0]);
                    for (int c = 0; c < COLUMNS.length; c++) {
                        v[c] = f[c + 1].isEmpty() ? Double.NaN : Double.parseDouble(f[c + 1]);
                    }
                    t.add(time, v);
                } catch (NumberFormatException e) {
                    throw new IOException(file + ":" + lineNo + ": not a number: " + e.getMessage());
                }
            }
        }
        return t;
    }
}
