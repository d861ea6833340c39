package org.pacelab.analysis.dc;

import java.util.ArrayList;
import java.util.List;

/**
 * Throughput and fairness of a multi-flow run: per-flow mean throughput over the window in which every flow was
 * active (the study's fixed-duration downloads all run to the end), Jain's fairness index of those means and over
 * sliding windows, and per-path throughput, utilization and the flows' shares of each path.
 */
public final class DcRunMetrics {
    private DcRunMetrics() {}

    /**
     * @param skipNanos    time skipped at the start of the common window (slow start), 0 for none
     * @param windowNanos  length of the sliding windows for the fairness index over time
     */
    public static DcRunSummary compute(DcRunData run, long skipNanos, long windowNanos) {
        double binS = run.binNanos() / 1e9;
        List<DcRunData.Flow> flows = run.flows();
        int bins = 0;
        for (DcRunData.Flow f : flows) bins = Math.max(bins, f.clientBytes().length);
        for (DcRunData.Path p : run.paths()) bins = Math.max(bins, p.bytes().length);
        String note = null;
        int from = 0, to = bins;
        boolean anyActive = false;
        for (DcRunData.Flow f : flows) {
            int first = first(f.clientBytes()), last = last(f.clientBytes());
            if (first < 0) {
                note = (note == null ? "" : note + "; ") + f.label() + " received nothing";
                continue;
            }
            if (!anyActive) { from = first; to = last + 1; anyActive = true; }
            from = Math.max(from, first);
            to = Math.min(to, last + 1);
        }
        if (!anyActive) {
            from = 0;
            to = bins;
        }
        int skipBins = (int) Math.min(Integer.MAX_VALUE, skipNanos / run.binNanos());
        if (to - from > skipBins) {
            from += skipBins;
        } else if (skipBins > 0) {
            note = (note == null ? "" : note + "; ") + "the common window is shorter than the time to skip; nothing skipped";
        }
        if (to <= from) {
            note = (note == null ? "" : note + "; ") + "the flows were never active at the same time; the whole run is used";
            from = 0;
            to = bins;
        }
        double seconds = (to - from) * binS;
        double[] rates = new double[flows.size()];
        List<DcRunSummary.FlowResult> flowResults = new ArrayList<>();
        double total = 0;
        for (int i = 0; i < flows.size(); i++) {
            DcRunData.Flow f = flows.get(i);
            rates[i] = seconds > 0 ? sum(f.clientBytes(), from, to) * 8 / seconds / 1e6 : Double.NaN;
            total += rates[i];
            long allPath = 0;
            for (long[] p : f.pathBytes()) allPath += sum(p, 0, p.length);
            double[] share = new double[f.pathBytes().size()];
            for (int k = 0; k < share.length; k++) {
                long[] p = f.pathBytes().get(k);
                share[k] = allPath > 0 ? (double) sum(p, 0, p.length) / allPath : Double.NaN;
            }
            flowResults.add(new DcRunSummary.FlowResult(f.id(), f.label(), f.mode(), rates[i],
                    sum(f.clientBytes(), 0, f.clientBytes().length), share, f.reordering()));
        }
        double jfi = flows.isEmpty() ? Double.NaN : JainFairness.index(rates);
        int windowBins = (int) Math.max(1, windowNanos / run.binNanos());
        long[][] perFlow = new long[flows.size()][];
        for (int i = 0; i < flows.size(); i++) perFlow[i] = flows.get(i).clientBytes();
        double[] series = JainFairness.sliding(perFlow, from, to, windowBins);
        double mean = 0, min = Double.NaN;
        int counted = 0;
        for (double v : series) {
            if (Double.isNaN(v)) continue;
            mean += v;
            counted++;
            min = Double.isNaN(min) ? v : Math.min(min, v);
        }
        mean = counted > 0 ? mean / counted : Double.NaN;
        if (series.length == 0 && !flows.isEmpty()) {
            note = (note == null ? "" : note + "; ") + "the window is shorter than one sliding window of "
                    + windowBins * binS + " s";
        }
        List<DcRunSummary.PathResult> paths = new ArrayList<>();
        for (int k = 0; k < run.paths().size(); k++) {
            DcRunData.Path p = run.paths().get(k);
            double bytes = sum(p.bytes(), from, to);
            double rate = seconds > 0 ? bytes * 8 / seconds / 1e6 : Double.NaN;
            double cap = Double.NaN, util = Double.NaN;
            if (p.capacityBytes() != null && seconds > 0) {
                double c = 0;
                for (int i = from; i < to && i < p.capacityBytes().length; i++) c += p.capacityBytes()[i];
                cap = c * 8 / seconds / 1e6;
                util = c > 0 ? bytes / c : Double.NaN;
            }
            long pathTotal = sum(p.bytes(), 0, p.bytes().length);
            double[] share = new double[flows.size()];
            for (int i = 0; i < flows.size(); i++) {
                List<long[]> fp = flows.get(i).pathBytes();
                long mine = k < fp.size() ? sum(fp.get(k), 0, fp.get(k).length) : 0;
                share[i] = pathTotal > 0 ? (double) mine / pathTotal : Double.NaN;
            }
            List<Double> users = new ArrayList<>();
            for (DcRunData.Flow f : flows) {
                List<long[]> fp = f.pathBytes();
                long mine = k < fp.size() ? sum(fp.get(k), from, to) : 0;
                if (mine > 0) users.add((double) mine);
            }
            double pathJfi = users.isEmpty() ? Double.NaN : JainFairness.index(users.stream().mapToDouble(Double::doubleValue).toArray());
            paths.add(new DcRunSummary.PathResult(p.name(), rate, cap, util, p.drops(), share, pathJfi));
        }
        return new DcRunSummary(from * binS, to * binS, jfi, windowBins * binS, mean, min, series, total, flowResults,
                paths, note);
    }

    static long sum(long[] v, int from, int to) {
        long s = 0;
        for (int i = Math.max(0, from); i < Math.min(to, v.length); i++) s += v[i];
        return s;
    }

    private static int first(long[] v) {
        for (int i = 0; i < v.length; i++) if (v[i] > 0) return i;
        return -1;
    }

    private static int last(long[] v) {
        for (int i = v.length - 1; i >= 0; i--) if (v[i] > 0) return i;
        return -1;
    }
}
