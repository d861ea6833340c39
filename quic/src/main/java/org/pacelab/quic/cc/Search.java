package org.pacelab.quic.cc;

import java.util.Map;

/**
 * SEARCH, "Slow start Exit At Right CHokepoint" (draft-chung-ccwg-search-09): slow start ends when the bytes
 * delivered over the last window fall short of the bytes sent over the same span one RTT earlier by at least
 * {@code threshold} of the latter — the delivery rate stopped following the sending rate, so the bottleneck is full.
 *
 * <p>Time is cut into bins of WINDOW_SIZE / W, WINDOW_SIZE being {@link #WINDOW_SIZE_FACTOR} initial RTTs (the
 * first RTT sample) and W = {@link #W} bins. At each bin boundary crossed by an ACK the cumulative bytes sent and
 * delivered are recorded; then {@code curr_delv} = delivered over the last W bins, {@code prev_sent} = sent over
 * W bins ending one (latest) RTT earlier, interpolated between the two bins around that point, and
 * {@code norm_diff = (prev_sent − curr_delv) / prev_sent}. The draft's checks: nothing before W bins of history,
 * nothing when the RTT has grown past {@link #EXTRA_BINS} bins of look-back, and (the draft's optional reset)
 * starting over after more than W bins without an ACK. On exit ssthresh = cwnd; the draft's optional reduction of
 * the window toward the delivered bytes of one initial RTT is not applied (neqo does not either: with CUBIC it
 * undershoots the window CUBIC then probes from).
 */
public final class Search extends RunningRule {
    /** WINDOW_SIZE = 3.5 × the initial RTT. */
    public static final double WINDOW_SIZE_FACTOR = 3.5;
    /** Bins per window. */
    public static final int W = 10;
    /** Bins of look-back beyond the window kept for the bytes sent, i.e. how far the RTT may grow. */
    public static final int EXTRA_BINS = 15;
    /** The draft's THRESH (0.26 since draft-09; 0.35 before). */
    public static final double THRESH = 0.26;

    private static final int ACKED_BINS = W + 1;
    private static final int SENT_BINS = ACKED_BINS + EXTRA_BINS;

    private final double threshold;
    private final long[] ackedBins = new long[ACKED_BINS];
    private final long[] sentBins = new long[SENT_BINS];
    private boolean initialized;
    private long currIdx;
    private long binEnd;
    private long binDuration;
    private long ackedBytes;
    private long sentBytes;
    private double lastNormDiff = Double.NaN;
    private int resets;

    /** @param threshold normalized difference at which slow start ends, in (0, 1) */
    public Search(double threshold) {
        if (!(threshold > 0 && threshold < 1)) {
            throw new IllegalArgumentException("SEARCH's threshold must be above 0 and below 1, got " + threshold);
        }
        this.threshold = threshold;
    }

    /** The last normalized difference evaluated (NaN before the first evaluation). */
    public double lastNormDiff() { return lastNormDiff; }

    /** Bin duration, ns (0 before the first ACK). */
    public long binDuration() { return binDuration; }

    /** Times the history was dropped after more than W bins without an ACK. */
    public int resets() { return resets; }

    @Override
    public void onPacketSent(PacketInfo packet) {
        if (active()) {
            sentBytes += packet.size();
        }
    }

    @Override
    public boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        if (!active()) {
            return false;
        }
        ackedBytes += ack.ackedBytes();
        long rtt = ack.rtt().latestRtt();
        long now = ack.now();
        if (!initialized) {
            if (rtt <= 0) {
                return false;
            }
            binDuration = Math.max(1, (long) (rtt * WINDOW_SIZE_FACTOR / W));
            binEnd = now + binDuration;
            currIdx = 0;
            ackedBins[0] = ackedBytes;
            sentBins[0] = sentBytes;
            initialized = true;
            return false;
        }
        if (now <= binEnd) {
            return false;
        }
        long passed = (now - binEnd) / binDuration + 1;
        if (passed > W) {
            initialized = false;
            ackedBytes = 0;
            sentBytes = 0;
            resets++;
            return false;
        }
        for (long i = currIdx + 1; i < currIdx + passed; i++) {
            ackedBins[(int) (i % ACKED_BINS)] = ackedBins[(int) (currIdx % ACKED_BINS)];
            sentBins[(int) (i % SENT_BINS)] = sentBins[(int) (currIdx % SENT_BINS)];
        }
        currIdx += passed;
        binEnd += binDuration * passed;
        ackedBins[(int) (currIdx % ACKED_BINS)] = ackedBytes;
        sentBins[(int) (currIdx % SENT_BINS)] = sentBytes;
        if (evaluate(rtt)) {
            stop();
            return true;
        }
        return false;
    }

    private boolean evaluate(long rtt) {
        long back = rtt / binDuration;
        double fraction = (double) (rtt % binDuration) / binDuration;
        long prevIdx = currIdx - back;
        if (prevIdx <= W || currIdx - prevIdx >= EXTRA_BINS) {
            return false;
        }
        long currDelivered = acked(currIdx) - acked(currIdx - W);
        double prevSent = (sent(prevIdx - 1) - sent(prevIdx - 1 - W)) * fraction
                + (sent(prevIdx) - sent(prevIdx - W)) * (1 - fraction);
        if (prevSent <= 0) {
            return false;
        }
        lastNormDiff = Math.max(0, prevSent - currDelivered) / prevSent;
        return lastNormDiff >= threshold;
    }

    private long acked(long idx) {
        return ackedBins[(int) (idx % ACKED_BINS)];
    }

    private long sent(long idx) {
        return sentBins[(int) (idx % SENT_BINS)];
    }

    @Override
    public void putQlogState(Map<String, Object> m) {
        m.put("slow_start_rule", SlowStartRule.SEARCH.optionValue());
        if (!Double.isNaN(lastNormDiff)) {
            m.put("search_norm_diff", lastNormDiff);
        }
    }
}
