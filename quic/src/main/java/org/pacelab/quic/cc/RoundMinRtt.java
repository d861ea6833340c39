package org.pacelab.quic.cc;

/**
 * The least RTT sample (latest_rtt, RFC 9002 §5.1) of the current round and the round before it: the RTT a window
 * meets with the queue that stands now; rounds counted by send time ({@link SendTimeRound}). The previous round is
 * kept so that the value does not jump when a round has just begun and holds one sample. Unlike min_rtt (the least over the connection) it carries a standing queue; unlike
 * smoothed_rtt it follows a queue that drains within a round.
 */
final class RoundMinRtt {
    private final SendTimeRound round = new SendTimeRound(-1);
    private long current = Long.MAX_VALUE;
    private long previous = Long.MAX_VALUE;

    /** An ACK: may end the round, then takes its RTT sample. */
    void onAck(AckEvent ack) {
        if (round.ends(ack)) {
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
