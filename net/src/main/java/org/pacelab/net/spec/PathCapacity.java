package org.pacelab.net.spec;

import org.pacelab.net.link.DirectionModel;
import org.pacelab.net.link.QueueLimit;

/**
 * What a link holds in flight from server to client without a drop: the downlink's bandwidth-delay product (its
 * rate, or a trace's mean rate, times the base RTT = both directions' delays) plus its drop-tail buffer. With
 * {@code shared=on} the limit already counts the downlink's delay line, so the capacity is the limit plus what the
 * uplink's delay holds at the downlink rate (acknowledgements on their way back). Per-packet rate overheads and the
 * wire are ignored (they change it by about 1 %). Used for the slow-start overshoot (cwnd at exit ÷ capacity).
 */
public final class PathCapacity {
    /** IP bytes of a full-size packet for buffers given in packets: an Ethernet MTU. */
    public static final int PACKET_BYTES = 1500;

    private PathCapacity() {}

    /** As {@link #bytes(LinkSpec, int)} with {@link #PACKET_BYTES}. */
    public static long bytes(LinkSpec link) throws SpecException {
        return bytes(link, PACKET_BYTES);
    }

    /**
     * @param packetBytes IP bytes of a full-size packet, for buffers given in packets
     * @return the capacity in bytes, or -1 when the link has no finite one (unlimited rate or queue)
     */
    public static long bytes(LinkSpec link, int packetBytes) throws SpecException {
        DirectionSpec d = link.down();
        DirectionModel model = LinkFactory.model(link, d, 0);
        long bitsPerSecond = model.rateLimiter().meanBitsPerSecond();
        QueueLimit limit = model.queueLimit();
        if (bitsPerSecond <= 0 || limit.equals(QueueLimit.UNLIMITED)) {
            return -1;
        }
        double bytesPerNs = bitsPerSecond / 8.0 / 1e9;
        long buffer = Math.min(limit.bytes(), limit.packets() == Long.MAX_VALUE ? Long.MAX_VALUE : limit.packets() * packetBytes);
        if (d.shared()) {
            return buffer + Math.round(bytesPerNs * link.up().delayNs());
        }
        return buffer + Math.round(bytesPerNs * (d.delayNs() + link.up().delayNs()));
    }
}
