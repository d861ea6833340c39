package org.pacelab.net.dc;

import java.io.IOException;
import java.nio.file.Path;
import org.pacelab.net.link.MahimahiTrace;
import org.pacelab.net.link.TraceFormatException;
import org.pacelab.net.spec.DirectionSpec;
import org.pacelab.net.spec.SpecException;

/**
 * What a path could carry per time bin: its fixed rate, or the opportunities of its Mahimahi trace (1500 bytes each,
 * the trace starting at model time 0 and repeating unless told otherwise). Divides a path's throughput into its
 * utilization.
 */
public final class PathCapacity {
    private PathCapacity() {}

    /** Bytes per bin for {@code bins} bins, or null for an unlimited path. */
    public static double[] bytesPerBin(DirectionSpec d, long binNanos, int bins) throws SpecException {
        double[] out = new double[bins];
        if (d.trace() != null) {
            MahimahiTrace t;
            try {
                t = MahimahiTrace.read(Path.of(d.trace()));
            } catch (TraceFormatException e) {
                throw new SpecException(e.getMessage());
            } catch (IOException e) {
                throw new SpecException("trace file " + d.trace() + " cannot be read: " + e.getMessage());
            }
            long period = t.periodMillis() * 1_000_000L;
            long end = bins * binNanos;
            for (long base = 0; base < end; base += period) {
                for (int i = 0; i < t.opportunities(); i++) {
                    long at = base + t.millisAt(i) * 1_000_000L;
                    if (at >= end) break;
                    out[(int) (at / binNanos)] += MahimahiTrace.OPPORTUNITY_BYTES;
                }
                if (!d.traceRepeat()) break;
            }
            return out;
        }
        if (d.rateBps() <= 0) return null;
        java.util.Arrays.fill(out, d.rateBps() / 8.0 * binNanos / 1e9);
        return out;
    }
}
