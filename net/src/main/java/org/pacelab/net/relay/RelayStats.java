package org.pacelab.net.relay;

import org.HdrHistogram.Histogram;

/**
 * Timing and overload statistics of a relay run. Delivery lateness is the time between when the model said a
 * packet leaves the link and when the relay's send call for it returned: the emulator's added delay error.
 */
public final class RelayStats {
    /** Lateness of deliveries, ns. */
    public final Histogram deliveryLateness = new Histogram(3_600_000_000_000L, 3);
    /** How long after the kernel's receive timestamp the relay read a datagram, ns. */
    public final Histogram receiveLag = new Histogram(3_600_000_000_000L, 3);
    public long datagramsIn, datagramsOut, sendFailures, overloadDrops, refusedFlows, flows;

    public String format() {
        return String.format("relay: %d datagrams in, %d out, %d send failures (socket buffer full), %d dropped by the "
                        + "relay's memory bound, %d flows (%d refused)%n"
                        + "delivery lateness (delay error): p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us over %d packets%n"
                        + "receive lag after kernel timestamp: p50 %.1f us, p99 %.1f us, max %.1f us%n",
                datagramsIn, datagramsOut, sendFailures, overloadDrops, flows, refusedFlows,
                us(deliveryLateness, 50), us(deliveryLateness, 99), us(deliveryLateness, 99.9),
                deliveryLateness.getMaxValue() / 1e3, deliveryLateness.getTotalCount(),
                us(receiveLag, 50), us(receiveLag, 99), receiveLag.getMaxValue() / 1e3);
    }

    private static double us(Histogram h, double p) { return h.getValueAtPercentile(p) / 1e3; }
}
