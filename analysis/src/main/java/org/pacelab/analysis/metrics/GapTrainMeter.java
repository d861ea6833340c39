package org.pacelab.analysis.metrics;

/**
 * Inter-packet gaps and packet trains of one packet sequence, streaming and memory-bounded.
 * A train is a maximal run of packets each of which follows the previous one by less than the threshold:
 * a gap equal to the threshold starts a new train (the QUIC Steps study's definition, threshold 0.1 ms).
 */
public final class GapTrainMeter {
    /** Told when a train ends. */
    @FunctionalInterface
    public interface TrainListener {
        void trainEnded(long trainIndex, int length);
    }

    private final long thresholdNs;
    private final TrainListener listener;
    private final NanosDistribution gaps;
    private final TrainLengths trains;
    private long packets;
    private long gapsBelowThreshold;
    private long outOfOrder;
    private long previousNs;
    private long firstNs;
    private int currentLength;
    private long trainIndex = -1;

    /** Records gaps into {@code gaps} and finished trains into {@code trains}, and tells {@code listener}. */
    public GapTrainMeter(long thresholdNs, NanosDistribution gaps, TrainLengths trains, TrainListener listener) {
        if (thresholdNs <= 0) {
            throw new IllegalArgumentException("train threshold must be positive, got " + thresholdNs + " ns");
        }
        this.thresholdNs = thresholdNs;
        this.gaps = gaps;
        this.trains = trains;
        this.listener = listener;
    }

    public GapTrainMeter(long thresholdNs) {
        this(thresholdNs, new NanosDistribution(), new TrainLengths(), (i, n) -> { });
    }

    /**
     * Adds a packet seen at {@code timeNs}; returns its gap to the previous packet in ns, or -1 for the first.
     * A timestamp earlier than the previous one (a capture out of order) counts as a gap of 0 and is counted
     * in {@link #outOfOrder()}.
     */
    public long onPacket(long timeNs) {
        long gap = -1;
        if (packets == 0) {
            firstNs = timeNs;
            startTrain();
        } else {
            gap = timeNs - previousNs;
            if (gap < 0) {
                outOfOrder++;
                gap = 0;
            }
            gaps.record(gap);
            if (gap < thresholdNs) {
                gapsBelowThreshold++;
                currentLength++;
            } else {
                endTrain();
                startTrain();
            }
        }
        previousNs = packets == 0 ? timeNs : Math.max(previousNs, timeNs);
        packets++;
        return gap;
    }

    private void startTrain() {
        trainIndex++;
        currentLength = 1;
    }

    private void endTrain() {
        if (currentLength > 0) {
            trains.addTrain(currentLength);
            listener.trainEnded(trainIndex, currentLength);
            currentLength = 0;
        }
    }

    /** Closes the last train; call once after the last packet. */
    public void finish() {
        endTrain();
    }

    public long thresholdNs() {
        return thresholdNs;
    }

    /** Index (0-based) of the train the latest packet belongs to. */
    public long currentTrainIndex() {
        return trainIndex;
    }

    public long packets() {
        return packets;
    }

    public long firstNs() {
        return firstNs;
    }

    public long lastNs() {
        return previousNs;
    }

    public NanosDistribution gaps() {
        return gaps;
    }

    public long gapsBelowThreshold() {
        return gapsBelowThreshold;
    }

    public long outOfOrder() {
        return outOfOrder;
    }

    /** Train counts; complete after {@link #finish()}. */
    public TrainLengths trains() {
        return trains;
    }
}
