package org.pacelab.analysis.metrics;

import org.HdrHistogram.DoubleHistogram;

/**
 * Pacing precision as the QUIC Steps study defines it: the population standard deviation of
 * (wire time − intended send time) over the packets matched between capture and qlog. Also the distribution of
 * that difference, and how actual gaps compare with the pacer's target gaps (size / pacing rate).
 * The differences are accumulated relative to the first one, so that a large clock offset loses no precision.
 */
public final class PrecisionMeter {
    private final RunningStats stats = new RunningStats();
    private final SignedHistogram delays;
    private final NanosDistribution targetGaps = new NanosDistribution();
    private final DoubleHistogram gapRatios = new DoubleHistogram(3);
    private long base = Long.MIN_VALUE;

    public PrecisionMeter(SignedHistogram delays) {
        this.delays = delays;
    }

    /** A matched packet whose wire time minus intended send time is {@code delayNs}. */
    public void onMatched(long delayNs) {
        if (base == Long.MIN_VALUE) {
            base = delayNs;
        }
        stats.add(delayNs - base);
        delays.record(delayNs);
    }

    /** A matched packet's pacer target gap and its actual gap on the wire (both ns, target > 0). */
    public void onGap(long targetGapNs, long actualGapNs) {
        targetGaps.record(targetGapNs);
        gapRatios.recordValue(Math.max(0, actualGapNs) / (double) targetGapNs);
    }

    public long matched() {
        return stats.count();
    }

    /** Population standard deviation in ns; NaN without matches. */
    public double precisionNs() {
        return stats.populationStd();
    }

    public double meanDelayNs() {
        return stats.count() == 0 ? Double.NaN : base + stats.mean();
    }

    public SignedHistogram delays() {
        return delays;
    }

    public NanosDistribution targetGaps() {
        return targetGaps;
    }

    /** Median of actual gap / target gap; NaN without samples. */
    public double gapRatioMedian() {
        return gapRatios.getTotalCount() == 0 ? Double.NaN : gapRatios.getValueAtPercentile(50);
    }
}
