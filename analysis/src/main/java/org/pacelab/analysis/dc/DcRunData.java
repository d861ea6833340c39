package org.pacelab.analysis.dc;

import java.util.List;

/**
 * What one dual-connectivity (or multi-flow) run produced, binned in time: the input of {@link DcRunMetrics}.
 * Built by the caller from the emulator's or simulator's event log (module net reads it), so this module needs
 * nothing but numbers.
 *
 * @param binNanos width of each bin; bin i covers [i·bin, (i+1)·bin) of the run's clock
 * @param flows    the flows, in a stable order
 * @param paths    the downlink paths (one for a single-path link)
 */
public record DcRunData(long binNanos, List<Flow> flows, List<Path> paths) {
    public DcRunData {
        if (binNanos <= 0) throw new IllegalArgumentException("bin width must be positive");
        flows = List.copyOf(flows);
        paths = List.copyOf(paths);
    }

    /**
     * One flow (a client/server pair).
     *
     * @param id          the flow id of the event log
     * @param label       what to call it in tables and legends, e.g. "flow 1 (dc)"
     * @param mode        dc, a or b (how it used the paths), or "single" on a single-path link
     * @param clientBytes bytes the client received per bin
     * @param pathBytes   bytes of this flow that left each path's rate limiter per bin, one row per path
     * @param reordering  the reordering receiver's counts, or null
     */
    public record Flow(int id, String label, String mode, long[] clientBytes, List<long[]> pathBytes, Reordering reordering) { }

    /**
     * One downlink path.
     *
     * @param name          "a" or "b"
     * @param bytes         bytes that left its rate limiter per bin
     * @param capacityBytes what it could carry per bin (fixed rate or trace), or null when unknown or unlimited
     * @param drops         packets dropped on it
     */
    public record Path(String name, long[] bytes, double[] capacityBytes, long drops) { }

    /**
     * What a flow's reordering receiver did.
     *
     * @param received          packets that reached the receiver
     * @param deliveredAtOnce   passed on as they arrived
     * @param held              stored out of order
     * @param releasedByArrival held packets released when their gap filled
     * @param releasedByTimer   held packets released by a t-Reordering expiry
     * @param timerExpiries     t-Reordering expiries
     * @param duplicates        discarded as already received
     * @param outdated          discarded as below RX_DELIV (given up by the timer)
     * @param maxHeld           most packets held at once
     * @param holdP50Ms         median time a held packet waited, ms (NaN if none was held)
     * @param holdP99Ms         99th percentile, ms
     * @param holdMaxMs         longest, ms
     */
    public record Reordering(long received, long deliveredAtOnce, long held, long releasedByArrival, long releasedByTimer,
                             long timerExpiries, long duplicates, long outdated, int maxHeld, double holdP50Ms,
                             double holdP99Ms, double holdMaxMs) { }
}
