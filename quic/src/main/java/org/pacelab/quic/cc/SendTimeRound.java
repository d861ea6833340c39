package org.pacelab.quic.cc;

/**
 * A round counted by send time: it ends with the ACK of a packet sent after it began, and the next begins at that
 * ACK's arrival. {@link OnsetBdp}'s check and {@link RoundMinRtt} count rounds this way (HyStart++ counts by packet
 * number, RFC 9406 §4.2).
 */
final class SendTimeRound {
    private long start;

    /** @param start when the first round begins, ns */
    SendTimeRound(long start) {
        this.start = start;
    }

    /** A round begins now. */
    void restart(long now) {
        start = now;
    }

    /** Whether this ACK ends the round (the next then begins at its arrival). */
    boolean ends(AckEvent ack) {
        PacketInfo largest = ack.largestAcked();
        if (largest != null && largest.timeSent() > start) {
            start = ack.now();
            return true;
        }
        return false;
    }
}
