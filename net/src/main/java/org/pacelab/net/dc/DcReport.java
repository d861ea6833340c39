package org.pacelab.net.dc;

/** The dual-connectivity lines of an emulator's exit report: bytes and drops per path, reordering per flow. */
public final class DcReport {
    private DcReport() {}

    /** Several lines; {@code totals} must have observed the downlink's events. */
    public static String format(DualConnectivityDownlink dc, DcTimeline totals) {
        StringBuilder b = new StringBuilder();
        b.append("dc   ").append(dc.split().format()).append(String.format(", t-reordering %.0f ms, %d-bit SN%s%n",
                dc.reordering().tReorderingNanos() / 1e6, dc.reordering().snBits(),
                dc.reordering().singlePathInOrder() ? ", single-path flows in order too" : ""));
        for (DcPath p : DcPath.values()) {
            long bytes = sum(totals.pathBytes(p));
            b.append(String.format("dc   path %s carried %d bytes, dropped %d packets%n", p.label(), bytes, totals.pathDrops(p)));
        }
        for (int flow : dc.flows()) {
            long a = sum(totals.pathBytes(DcPath.A, flow)), bb = sum(totals.pathBytes(DcPath.B, flow));
            b.append(String.format("dc   flow %d (%s): %d bytes on a, %d on b; ", flow, dc.mode(flow).label(), a, bb));
            b.append(dc.reorderingStats(flow).format());
        }
        return b.toString();
    }

    private static long sum(long[] v) {
        long s = 0;
        for (long x : v) s += x;
        return s;
    }
}
