package org.pacelab.analysis.metrics;

/**
 * Whether the server's qlog clock and the capture's agree, from the smallest one-way delay seen each way, as NTP
 * bounds a clock offset (RFC 5905 §8: offset = half the difference of the two ways, within half the round trip).
 * Down: a server packet's capture time less its intended send time in the qlog ({@code send_at_time}); up: the
 * qlog's packet_received time of a client packet less its capture time. With the trace's clock {@code θ} ahead of
 * the capture's, down = true down − θ and up = true up + θ; a packet leaves no earlier than its intended time and
 * reaches the server after the capture point, so both true delays are ≥ 0 and
 * θ ∈ [−min down, min up] = {@link #offsetNs()} ± {@link #boundNs()}. A negative minimum either way is a packet seen
 * before it left: the two clocks disagree by more than the path can explain ({@link #inconsistent()}).
 */
public final class ClockCheck {
    private long minUp = Long.MAX_VALUE;
    private long minDown = Long.MAX_VALUE;
    private long up;
    private long down;

    /** A server packet: capture time − intended send time (ns). */
    public void onDown(long delayNs) {
        down++;
        minDown = Math.min(minDown, delayNs);
    }

    /** A client packet: the server's receive time in its qlog − capture time (ns). */
    public void onUp(long delayNs) {
        up++;
        minUp = Math.min(minUp, delayNs);
    }

    public long upSamples() {
        return up;
    }

    public long downSamples() {
        return down;
    }

    /** Whether both ways have samples. */
    public boolean measured() {
        return up > 0 && down > 0;
    }

    /** The trace's clock less the capture's, ns: (min up − min down) / 2. */
    public double offsetNs() {
        return ((double) minUp - minDown) / 2;
    }

    /** Half the smallest round trip, ns: the offset lies within {@link #offsetNs()} ± this. */
    public double boundNs() {
        return ((double) minUp + minDown) / 2;
    }

    /** Smallest delay seen each way (ns; Long.MAX_VALUE without samples). */
    public long minUpNs() {
        return minUp;
    }

    public long minDownNs() {
        return minDown;
    }

    /** Whether a packet was seen before it left (either minimum below 0): no offset of 0 fits both ways. */
    public boolean inconsistent() {
        return measured() && (minUp < 0 || minDown < 0);
    }
}
