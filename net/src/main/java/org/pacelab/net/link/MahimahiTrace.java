package org.pacelab.net.link;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A Mahimahi packet-delivery trace: one line per delivery opportunity of {@value #OPPORTUNITY_BYTES} bytes,
 * each line a timestamp in milliseconds from the start of the trace; several opportunities in one millisecond
 * repeat the timestamp. Timestamps never decrease, and the trace's period is its last timestamp, which must be
 * positive (a trace holding just {@code 1} is a fixed 12 Mbit/s link).
 */
public final class MahimahiTrace {
    public static final int OPPORTUNITY_BYTES = 1500;

    private final String name;
    private final long[] millis;

    private MahimahiTrace(String name, long[] millis) {
        this.name = name;
        this.millis = millis;
    }

    /** Reads and validates a trace file; errors name the file and line. */
    public static MahimahiTrace read(Path file) throws IOException, TraceFormatException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            return parse(file.toString(), r);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException("trace file " + file + " does not exist");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new TraceFormatException("trace file " + file + " is not a text file of millisecond timestamps");
        }
    }

    /** Parses a trace from text (used by tests and by {@link #read}). */
    public static MahimahiTrace parse(String name, BufferedReader r) throws IOException, TraceFormatException {
        long[] ms = new long[1024];
        int n = 0;
        String line;
        int lineNo = 0;
        while ((line = r.readLine()) != null) {
            lineNo++;
            String s = line.strip();
            if (s.isEmpty()) {
                throw new TraceFormatException(name + ":" + lineNo + ": empty line; every line must be one integer "
                        + "timestamp in milliseconds");
            }
            long v;
            try {
                v = Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new TraceFormatException(name + ":" + lineNo + ": '" + abbreviate(s)
                        + "' is not a whole number of milliseconds");
            }
            if (v < 0) throw new TraceFormatException(name + ":" + lineNo + ": timestamp " + v + " is negative");
            if (n > 0 && v < ms[n - 1]) {
                throw new TraceFormatException(name + ":" + lineNo + ": timestamp " + v
                        + " is smaller than the previous one (" + ms[n - 1] + "); timestamps must never decrease");
            }
            if (n == ms.length) ms = Arrays.copyOf(ms, n * 2);
            ms[n++] = v;
        }
        if (n == 0) throw new TraceFormatException(name + ": the trace is empty; it needs at least one timestamp");
        if (ms[n - 1] == 0) {
            throw new TraceFormatException(name + ":" + n + ": the last timestamp is 0; a trace must last a positive "
                    + "number of milliseconds (its period)");
        }
        return new MahimahiTrace(name, Arrays.copyOf(ms, n));
    }

    private static String abbreviate(String s) { return s.length() > 40 ? s.substring(0, 40) + "..." : s; }

    public String name() { return name; }

    /** Number of delivery opportunities in one period. */
    public int opportunities() { return millis.length; }

    /** Timestamp of opportunity {@code i} in milliseconds. */
    public long millisAt(int i) { return millis[i]; }

    /** The period in milliseconds (the last timestamp). */
    public long periodMillis() { return millis[millis.length - 1]; }

    /** Mean rate over one period in bits per second. */
    public long meanBitsPerSecond() {
        return Math.round(millis.length * (double) OPPORTUNITY_BYTES * 8 * 1000.0 / periodMillis());
    }
}
