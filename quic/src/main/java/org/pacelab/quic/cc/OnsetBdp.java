package org.pacelab.quic.cc;

import java.util.Map;

import org.pacelab.quic.recovery.RateSample;

/**
 * Leaves slow start at the queue's onset ({@link QueueOnset}: the RTT above its minimum for a run of consecutive ACKs
 * within the round) but continues with a window from the delivery rate measured in slow start instead of the window at
 * the onset: max(onset's window, max delivery rate × minimum RTT), at most the window then. The queue's onset says the
 * pacer (2·cwnd/srtt in slow start) now sends faster than the bottleneck, i.e. the window has passed about half the
 * BDP; from then on the ACKs arrive at the bottleneck rate, so the delivery-rate samples
 * (draft-cheng-iccrg-delivery-rate-estimation, the same samples BBR's full-pipe estimate reads) measure it, and the
 * window that fills the pipe without a queue is that rate times the minimum RTT. Leaving with the onset's window alone
 * lets CUBIC start its epoch (RFC 9438 §4.10: K = 0, W_max = cwnd) below the BDP and grow back slowly: the goodput the
 * {@code onset} rule lost at small buffers and small BDPs.
 *
 * <p>The exit also covers the packets already in flight ({@link #exitCoversInFlight}): when the onset is seen late
 * (a fast path where a round lasts a few ms), the window sent before the exit may already overflow the buffer; their
 * losses are the congestion this exit responded to, so they start no congestion event (one reduction per round, the
 * reason of RFC 9002 §7.3.2's recovery period). Delivery-rate samples taken while application-limited count only when
 * they raise the maximum (they underestimate, never overestimate, the path; BBR's rule).
 */
public final class OnsetBdp implements SlowStartExit {
    private final QueueOnset onset;
    private boolean active = true;
    private long maxDeliveryRate;
    private long bdpEstimate = -1;
    private boolean coveredLossSeen;
    private long minWindow;

    /** @see QueueOnset#QueueOnset(long, boolean) */
    public OnsetBdp(long minDelay, boolean paced) {
        this.onset = new QueueOnset(minDelay, paced);
    }

    /** The highest delivery rate seen in slow start, bytes per second. */
    public long maxDeliveryRate() { return maxDeliveryRate; }

    /** The BDP estimate (max delivery rate × min RTT) at the exit, bytes; -1 before. */
    public long bdpEstimate() { return bdpEstimate; }

    /** The onset detector (its minimum RTT and the delay that ended slow start). */
    public QueueOnset onset() { return onset; }

    @Override
    public void onPacketSent(PacketInfo packet) {}

    @Override
    public boolean onAck(AckEvent ack, long congestionWindow, int maxDatagramSize) {
        if (!active) {
            return false;
        }
        RateSample rs = ack.rateSample();
        if (rs != null && rs.deliveryRate() > maxDeliveryRate) {
            maxDeliveryRate = rs.deliveryRate();
        }
        if (!onset.onAck(ack, congestionWindow, maxDatagramSize)) {
            return false;
        }
        minWindow = (long) HyStart.LOW_WINDOW * maxDatagramSize;
        long minRtt = onset.minRtt();
        long rate = Math.max(maxDeliveryRate, onset.exitAckRate());
        bdpEstimate = (long) ((double) rate * minRtt / 1e9);
        active = false;
        return true;
    }

    @Override
    public long exitWindow(long congestionWindow) {
        long w = onset.exitWindow(congestionWindow);
        return Math.min(congestionWindow, Math.max(w, bdpEstimate));
    }

    @Override
    public long windowAfterCoveredLoss(long congestionWindow) {
        if (coveredLossSeen || bdpEstimate <= 0) {
            return congestionWindow;
        }
        coveredLossSeen = true;
        return Math.min(congestionWindow, Math.max(bdpEstimate, minWindow));
    }

    @Override
    public boolean exitCoversInFlight() {
        return true;
    }

    @Override
    public void stop() {
        active = false;
        onset.stop();
    }

    @Override
    public boolean active() {
        return active;
    }

    @Override
    public void putQlogState(Map<String, Object> m) {
        m.put("slow_start_rule", SlowStartRule.ONSET_BDP.optionValue());
        if (onset.exitDelay() >= 0) {
            m.put("onset_delay_ms", onset.exitDelay() / 1e6);
        }
        if (bdpEstimate >= 0) {
            m.put("onset_bdp_bytes", bdpEstimate);
        }
    }
}
