package org.pacelab.quic.cc;

/**
 * The least RTT sample (latest_rtt, RFC 9002 §5.1) of the current round and the round before it: the RTT a window
 * meets with the queue that stands now. A round ends with the ACK of a packet sent after it began, as
 * {@link OnsetBdp}'s check counts them. The previous round is kept so that the value does not jump when a round has
 * just begun and holds one sample. Unlike min_rtt (the least over the connection) it carries a standing queue; unlike
 * smoothed_rtt it follows a queue that drains within a round.
 */
final class RoundMinRtt {
    private long roundStart = -1;
    private long current = Long.MAX_VALUE;
    private long previous = Long.MAX_VALUE;

    /** An ACK: may end the round, then takes its RTT sample. */
    void onAck(AckEvent ack) {
        PacketInfo largest = ack.largestAcked();
        if (largest != null && largest.timeSent() > roundStart) {
            roundStart = ack.now();
            previous = current;
            current = Long.MAX_VALUE;
        }
        long sample = ack.rtt().latestRtt();
        if (sample > 0) {
            current = Math.min(current, sample);
        }
    }

    /** The least sample of this round and the last, ns; {@link Long#MAX_VALUE} before any. */
    long value() {
        return Math.min(previous, current);
    }
}
