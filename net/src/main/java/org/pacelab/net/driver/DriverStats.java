package org.pacelab.net.driver;

import org.HdrHistogram.Histogram;

/**
 * Timing and overload statistics of a real-time emulator run. Delivery lateness is the time between when the
 * model said a packet leaves the link and when the emulator's send call for it returned: the emulator's added
 * delay error.
 */
public final class DriverStats {
    /** Lateness of deliveries, ns. */
    public final Histogram deliveryLateness = new Histogram(3_600_000_000_000L, 3);
    /** How long after the kernel's receive timestamp the emulator read a datagram, ns. */
    public final Histogram receiveLag = new Histogram(3_600_000_000_000L, 3);
    /** Model arrival time minus the kernel's receive timestamp (the tap's timestamp error against the kernel), ns. */
    public final Histogram arrivalVsKernel = new Histogram(3_600_000_000_000L, 3);
    public long datagramsIn, datagramsOut, sendFailures, overloadDrops, refusedFlows, flows;

    public String format() {
        StringBuilder b = new StringBuilder();
        b.append(String.format("emulator: %d datagrams in, %d out, %d send failures (socket buffer full), %d dropped by the "
                + "emulator's memory bound, %d flows (%d refused)%n", datagramsIn, datagramsOut, sendFailures, overloadDrops,
                flows, refusedFlows));
        b.append(line("delivery lateness (delay error)", deliveryLateness));
        b.append(line("receive lag after the kernel timestamp", receiveLag));
        b.append(line("arrival (tap) time minus kernel timestamp", arrivalVsKernel));
        return b.toString();
    }

    /** One line of percentiles in microseconds. */
    public static String line(String what, Histogram h) {
        if (h.getTotalCount() == 0) return what + ": no samples" + System.lineSeparator();
        return String.format("%s: p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us over %d packets%n", what,
                h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
                h.getMaxValue() / 1e3, h.getTotalCount());
    }
}
