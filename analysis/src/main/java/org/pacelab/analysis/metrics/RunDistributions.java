package org.pacelab.analysis.metrics;

/**
 * The per-packet distributions of one run, mergeable across repetitions (pooled CDFs):
 * inter-packet gaps of the server's packets, packet-train lengths, and send delays (wire time − intended
 * send time, in 1 µs bins).
 */
public final class RunDistributions {
    public static final long SEND_DELAY_BIN_NS = 1_000;

    private final NanosDistribution gaps;
    private final TrainLengths trains;
    private final SignedHistogram sendDelays;

    public RunDistributions(NanosDistribution gaps, TrainLengths trains, SignedHistogram sendDelays) {
        if (sendDelays.binWidth() != SEND_DELAY_BIN_NS) {
            throw new IllegalArgumentException("send delays use " + SEND_DELAY_BIN_NS + " ns bins, got " + sendDelays.binWidth());
        }
        this.gaps = gaps;
        this.trains = trains;
        this.sendDelays = sendDelays;
    }

    public static RunDistributions empty() {
        return new RunDistributions(new NanosDistribution(), new TrainLengths(), new SignedHistogram(SEND_DELAY_BIN_NS));
    }

    /** Inter-packet gaps in ns. */
    public NanosDistribution gaps() {
        return gaps;
    }

    public TrainLengths trains() {
        return trains;
    }

    /** Wire time − intended send time in ns (raw: includes any clock offset between capture and qlog). */
    public SignedHistogram sendDelays() {
        return sendDelays;
    }

    /** Adds another run's samples (pooling). */
    public void merge(RunDistributions other) {
        gaps.merge(other.gaps);
        trains.merge(other.trains);
        sendDelays.merge(other.sendDelays);
    }
}
