package org.pacelab.lab.dc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

import org.HdrHistogram.Histogram;

import org.pacelab.analysis.dc.DcRunData;
import org.pacelab.analysis.dc.DcRunMetrics;
import org.pacelab.analysis.dc.DcRunSummary;
import org.pacelab.net.dc.DcPath;
import org.pacelab.net.dc.DcSpec;
import org.pacelab.net.dc.DcTimeline;
import org.pacelab.net.dc.PathCapacity;
import org.pacelab.net.dc.ReorderingStats;
import org.pacelab.net.log.EventLogReader;
import org.pacelab.net.spec.SpecException;

/**
 * Turns the event log of a multi-flow run (relay, namespace middlebox or simulator) into the per-flow and per-path
 * series the analysis module measures ({@link DcRunData}), and those into a {@link DcRunSummary}. The glue between
 * module net (which owns the log format) and module analysis (which needs only numbers).
 */
public final class DcRunAnalysis {
    private DcRunAnalysis() {}

    /** The series and their metrics. */
    public record Result(DcRunData data, DcRunSummary summary) { }

    /**
     * @param eventLog    the run's event log
     * @param spec        the dual-connectivity link the run used, for the paths' capacities; null if unknown
     * @param binNanos    bin width of the series
     * @param skipNanos   time skipped at the start of the common window
     * @param windowNanos length of the sliding fairness windows
     */
    public static Result analyze(Path eventLog, DcSpec spec, long binNanos, long skipNanos, long windowNanos)
            throws IOException, EventLogReader.EventLogFormatException, SpecException {
        return analyze(eventLog, spec, binNanos, skipNanos, windowNanos, description -> true);
    }

    /**
     * As above, counting only the flows whose FLOW description {@code counted} accepts (in namespace mode the
     * middlebox also sees traffic that belongs to no client/server pair, e.g. ICMPv6 neighbour discovery).
     */
    public static Result analyze(Path eventLog, DcSpec spec, long binNanos, long skipNanos, long windowNanos,
                                 Predicate<String> counted)
            throws IOException, EventLogReader.EventLogFormatException, SpecException {
        DcTimeline timeline = new DcTimeline(binNanos);
        EventLogReader.Result log = EventLogReader.read(eventLog, timeline::add);
        DcRunData data = data(timeline, log.flows(), spec, id -> counted.test(log.flows().getOrDefault(id, "")));
        return new Result(data, DcRunMetrics.compute(data, skipNanos, windowNanos));
    }

    /**
     * The series of a timeline; {@code flowDescriptions} are the log's FLOW texts (they end in " path=MODE" with dc).
     * Flows are ordered dual-connected first, then path a's, then path b's (by flow id within each).
     */
    public static DcRunData data(DcTimeline t, Map<Integer, String> flowDescriptions, DcSpec spec) throws SpecException {
        return data(t, flowDescriptions, spec, id -> true);
    }

    private static DcRunData data(DcTimeline t, Map<Integer, String> flowDescriptions, DcSpec spec, IntPredicate counted)
            throws SpecException {
        boolean dc = t.dualConnectivity() || spec != null;
        List<DcRunData.Flow> flows = new ArrayList<>();
        for (int id : t.flows()) {
            if (!counted.test(id)) continue;
            String mode = modeOf(flowDescriptions.get(id), dc);
            List<long[]> perPath = new ArrayList<>();
            perPath.add(t.pathBytes(DcPath.A, id));
            if (dc) perPath.add(t.pathBytes(DcPath.B, id));
            flows.add(new DcRunData.Flow(id, "flow " + id + " (" + mode + ")", mode, t.clientBytes(id), perPath,
                    reordering(t.reordering(id))));
        }
        List<DcRunData.Path> paths = new ArrayList<>();
        for (DcPath p : dc ? DcPath.values() : new DcPath[] {DcPath.A}) {
            long[] bytes = t.pathBytes(p);
            double[] capacity = spec == null ? null : PathCapacity.bytesPerBin(spec.path(p), t.binNanos(), Math.max(t.bins(), 1));
            paths.add(new DcRunData.Path(dc ? p.label() : "down", bytes, capacity, t.pathDrops(p)));
        }
        flows.sort(java.util.Comparator.comparingInt((DcRunData.Flow f) -> rank(f.mode())).thenComparingInt(DcRunData.Flow::id));
        return new DcRunData(t.binNanos(), flows, paths);
    }

    private static int rank(String mode) {
        return switch (mode) {
            case "dc" -> 0;
            case "a" -> 1;
            case "b" -> 2;
            default -> 3;
        };
    }

    private static String modeOf(String description, boolean dc) {
        if (!dc) return "single";
        if (description != null) {
            int at = description.lastIndexOf(" path=");
            if (at >= 0) return description.substring(at + " path=".length()).strip();
        }
        return "dc";
    }

    private static DcRunData.Reordering reordering(ReorderingStats s) {
        if (s == null) return null;
        Histogram h = s.holdNanos;
        boolean any = h.getTotalCount() > 0;
        return new DcRunData.Reordering(s.received, s.deliveredAtOnce, s.held, s.releasedByArrival, s.releasedByTimer,
                s.timerExpiries, s.duplicates, s.outdated, s.maxHeld,
                any ? h.getValueAtPercentile(50) / 1e6 : Double.NaN, any ? h.getValueAtPercentile(99) / 1e6 : Double.NaN,
                any ? h.getMaxValue() / 1e6 : Double.NaN);
    }
}
