package org.pacelab.analysis.dc;

import java.util.List;

/**
 * The metrics of one multi-flow run (see {@link DcRunMetrics}). Rates in Mbit/s (10^6 bit/s) of IP bytes; NaN where a
 * value cannot be computed, with {@code note} saying why.
 *
 * @param windowStartS    start of the measurement window (every flow active), seconds on the run's clock
 * @param windowEndS      its end
 * @param jfi             Jain's fairness index of the flows' mean throughputs over the window
 * @param jfiWindowS      length of the sliding windows
 * @param jfiWindowMean   mean of the sliding-window indices
 * @param jfiWindowMin    lowest sliding-window index
 * @param jfiSeries       the sliding-window indices, one per bin step from the window's start
 * @param throughputMbps  all flows together over the window
 * @param flows           per flow
 * @param paths           per path
 * @param note            why something is missing, or null
 */
public record DcRunSummary(double windowStartS, double windowEndS, double jfi, double jfiWindowS, double jfiWindowMean,
                           double jfiWindowMin, double[] jfiSeries, double throughputMbps, List<FlowResult> flows,
                           List<PathResult> paths, String note) {

    /**
     * @param throughputMbps mean over the window
     * @param bytes          bytes received over the whole run
     * @param pathShare      share of this flow's bytes that went over each path (in path order)
     */
    public record FlowResult(int id, String label, String mode, double throughputMbps, long bytes, double[] pathShare,
                             DcRunData.Reordering reordering) { }

    /**
     * @param throughputMbps mean over the window
     * @param capacityMbps   mean capacity over the window (NaN when unknown)
     * @param utilization    throughput / capacity over the window (NaN when the capacity is unknown)
     * @param flowShare      share of the path's bytes per flow (in flow order)
     * @param jfi            Jain's fairness index of the bytes the flows that used this path sent over it in the window
     *                       (the flows sharing a path: in the fairness setup the dual-connected flow and that path's
     *                       single-path flow; 1 when they split the path evenly)
     */
    public record PathResult(String name, double throughputMbps, double capacityMbps, double utilization, long drops,
                             double[] flowShare, double jfi) { }
}
