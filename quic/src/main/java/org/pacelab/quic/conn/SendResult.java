package org.pacelab.quic.conn;

/**
 * What {@link QuicConnection#send} produced.
 *
 * @param length           bytes of the datagram written (0 when none)
 * @param intendedSendTime the pacer's intended send time of the datagram's paced packet, ns (the send time
 *                         when nothing in it was paced); may lie after {@code now} with a pacing look-ahead
 * @param blockedUntil     when nothing was written because the pacer holds the next packet: the earliest
 *                         time to call {@code send} again; otherwise 0
 * @param path             the path the datagram goes on (RFC 9000 §9: the current one, or another being validated),
 *                         or null when the runtime never told the connection its path (then it sends where it always does)
 */
public record SendResult(int length, long intendedSendTime, long blockedUntil, NetworkPath path) {
    /** Nothing to send until new input (a datagram, a timeout, or application data). */
    public static final SendResult NOTHING = new SendResult(0, 0, 0);

    public SendResult(int length, long intendedSendTime, long blockedUntil) {
        this(length, intendedSendTime, blockedUntil, null);
    }

    public static SendResult blocked(long until) {
        return new SendResult(0, 0, until);
    }

    public boolean wrote() {
        return length > 0;
    }

    public boolean isBlockedByPacer() {
        return length == 0 && blockedUntil != 0;
    }
}
