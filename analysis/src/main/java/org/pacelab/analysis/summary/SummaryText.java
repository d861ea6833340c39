package org.pacelab.analysis.summary;

import java.util.List;
import java.util.Locale;

import static org.pacelab.analysis.summary.SummaryField.*;

/** A short terminal rendering of the main fields of a {@link Summary} (the JSON has them all). */
public final class SummaryText {
    private static final List<SummaryField> MAIN = List.of(PROTOCOL, SERVER, SERVER_DETECTION, CONNECTIONS, PACKETS,
            CLIENT_PACKETS, SERVER_1RTT_PACKETS, PN_RECOVERED, CIPHER_SUITE, IPG_P50_US, IPG_P99_US, IPG_LT_THRESHOLD_SHARE,
            TRAINS, PTL1_SHARE, PTL_LE2_SHARE, PTL_LE5_SHARE, PTL_PER_PACKET_MEAN, GOODPUT_WIRE_MBPS, GOODPUT_APP_MBPS,
            GOODPUT_WALL_MBPS, THROUGHPUT_WIRE_MBPS, DROPS, RETRANSMISSIONS, PRECISION_US, PRECISION_MATCHED_SHARE,
            TARGET_GAP_P50_US, CWND_MAX_BYTES);

    private SummaryText() {}

    public static String format(Summary s) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "capture  %s (%s, %d frames)%n", s.string(CAPTURE), s.string(CAPTURE_FORMAT),
                s.integer(FRAMES)));
        if (s.string(CAPTURE_TRUNCATION) != null) {
            sb.append("         truncated: ").append(s.string(CAPTURE_TRUNCATION)).append('\n');
        }
        for (SummaryField f : MAIN) {
            sb.append(String.format(Locale.ROOT, "%-24s %s%n", f.jsonName(), value(s, f)));
        }
        if (s.string(NOTES) != null) {
            sb.append("notes: ").append(s.string(NOTES)).append('\n');
        }
        return sb.toString();
    }

    /** A value with its unit, or "n/a (reason)". */
    public static String value(Summary s, SummaryField f) {
        Object v = s.get(f);
        if (v == null) {
            String r = s.reason(f);
            return r == null ? "n/a" : "n/a (" + r + ")";
        }
        String unit = f.unit().isEmpty() ? "" : " " + f.unit().replace("us", "µs");
        return switch (v) {
            case Double d -> formatNumber(d) + unit;
            default -> v + unit;
        };
    }

    /** Numbers shown with 4 significant digits (fixed notation). */
    public static String formatNumber(double d) {
        if (d == 0) {
            return "0";
        }
        double a = Math.abs(d);
        int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
        return String.format(Locale.ROOT, "%." + decimals + "f", d);
    }
}
