package org.pacelab.sim.host;

/**
 * How a host hands datagrams to its kernel: one {@code sendmsg} per datagram, {@code sendmmsg} batches, or UDP
 * GSO buffers ({@code UDP_SEGMENT}); whether each carries a send time (SO_TXTIME) and whether the kernel paces
 * the segments of a GSO buffer (the QUIC Steps study's {@code UDP_SEGMENT_PACING_RATE} patch); and how many
 * datagrams one receive call returns ({@code recvmmsg}).
 *
 * @param gsoSegments     segments per GSO buffer at most (1 = no GSO); Linux allows up to 64
 * @param sendmmsgBatch   datagrams per sendmmsg call at most (1 = a sendmsg per datagram)
 * @param txtime          every datagram (GSO buffer) carries its intended send time for an fq/etf qdisc
 * @param pacedGso        the kernel spaces a GSO buffer's segments at the connection's pacing rate
 * @param pacingLookahead how far ahead of its send time the connection may release a packet (with txtime), ns
 * @param recvBatch       datagrams per receive call at most (1 = recvmsg, more = recvmmsg)
 */
public record SendPathConfig(int gsoSegments, int sendmmsgBatch, boolean txtime, boolean pacedGso,
                             long pacingLookahead, int recvBatch) {
    /** Linux's UDP_MAX_SEGMENTS. */
    public static final int MAX_GSO_SEGMENTS = 64;
    /** Linux's UIO_MAXIOV, the most messages one sendmmsg/recvmmsg takes. */
    public static final int MAX_BATCH = 1024;
    /** Look-ahead used with --txtime when none is given: enough for a 16-segment buffer at 40 Mbit/s. */
    public static final long DEFAULT_TXTIME_LOOKAHEAD = 5_000_000L;

    public SendPathConfig {
        if (gsoSegments < 1 || gsoSegments > MAX_GSO_SEGMENTS) {
            throw new IllegalArgumentException("--gso: " + gsoSegments + " segments is out of range; valid: 1 (off) to "
                    + MAX_GSO_SEGMENTS + " (Linux UDP_MAX_SEGMENTS)");
        }
        if (sendmmsgBatch < 1 || sendmmsgBatch > MAX_BATCH) {
            throw new IllegalArgumentException("--sendmmsg: " + sendmmsgBatch + " is out of range; valid: 1 (sendmsg) to " + MAX_BATCH);
        }
        if (recvBatch < 1 || recvBatch > MAX_BATCH) {
            throw new IllegalArgumentException("--recv-batch: " + recvBatch + " is out of range; valid: 1 (recvmsg) to " + MAX_BATCH);
        }
        if (gsoSegments > 1 && sendmmsgBatch > 1) {
            throw new IllegalArgumentException("--gso and --sendmmsg together (sendmmsg of GSO buffers) are not modelled; choose one");
        }
        if (pacedGso && gsoSegments < 2) {
            throw new IllegalArgumentException("--paced-gso needs --gso 2 or more: it paces the segments of GSO buffers");
        }
        if (pacedGso && !txtime) {
            throw new IllegalArgumentException("--paced-gso needs --txtime: the kernel spaces segments from the buffer's send time");
        }
        if (pacingLookahead < 0) {
            throw new IllegalArgumentException("--pacing-lookahead: must be >= 0, got " + pacingLookahead + " ns");
        }
        if (pacingLookahead > 0 && !txtime) {
            throw new IllegalArgumentException("--pacing-lookahead needs --txtime: only a qdisc holding packets until their"
                    + " send time can take them early");
        }
    }

    /** One sendmsg per datagram, no send times, one recvmsg per datagram: what the io runtime does today. */
    public static SendPathConfig plain() {
        return new SendPathConfig(1, 1, false, false, 0, 1);
    }
}
