package org.pacelab.net.link;

/**
 * A link transmitting at a fixed bit rate: a packet leaves when its last bit has been sent, i.e. its
 * transmission time after it reached the head of the queue (a point-to-point link, ns-3's
 * PointToPointNetDevice). Byte-time accounting is exact (see {@link ByteTime}).
 */
public final class SerializingRateLimiter implements RateLimiter {
    private final ByteTime byteTime;
    private long lastDeparture = Long.MIN_VALUE;

    public SerializingRateLimiter(long bitsPerSecond) {
        this.byteTime = new ByteTime(bitsPerSecond);
    }

    @Override
    public long schedule(int bytes, long arrival, long headSince) {
        long start = Math.max(headSince, lastDeparture);
        if (start > lastDeparture) byteTime.reset(); // idle gap: no fraction to carry
        lastDeparture = start + byteTime.nanosFor(bytes);
        return lastDeparture;
    }

    @Override
    public long meanBitsPerSecond() { return byteTime.bitsPerSecond(); }
}
