package org.pacelab.net.link;

/**
 * The resolved stages of one link direction, in the order a packet crosses them:
 * wire (access link) → tap → drop list / blackhole / loss / corruption / duplication → queue → rate limiter → delay line.
 *
 * @param wireBitsPerSecond    line rate of the access-link wire model; 0 disables it (tap = arrival)
 * @param wireFramingBytes     per-frame overhead on the wire (Ethernet: 38)
 * @param loss                 random loss
 * @param corruption           which packets get a byte changed, and how
 * @param duplicateProbability probability that a packet is duplicated
 * @param rateLimiter          the bottleneck's rate limiter
 * @param limiterOverheadBytes bytes the rate limiter charges per packet on top of its size (tc's overhead; a
 *                             tbf on an Ethernet device charges the 14-byte MAC header)
 * @param queueLimit           drop-tail limit
 * @param sharedLimit          whether packets in the delay line count against the queue limit (a netem child of
 *                             tbf: its limit covers packets being delayed and those waiting for tokens)
 * @param delayNanos           constant delay
 * @param jitter               delay variation
 * @param reorder              whether jitter may reorder packets
 * @param blackhole            outages during which every packet is lost
 * @param dropList             packets dropped by their position
 */
public record DirectionModel(long wireBitsPerSecond, int wireFramingBytes, LossModel loss, Corruption corruption,
                             double duplicateProbability, RateLimiter rateLimiter, int limiterOverheadBytes,
                             QueueLimit queueLimit, boolean sharedLimit, long delayNanos, Jitter jitter,
                             boolean reorder, Blackhole blackhole, DropList dropList) {
    public DirectionModel {
        if (wireBitsPerSecond < 0) throw new IllegalArgumentException("wire rate must not be negative");
        if (delayNanos < 0) throw new IllegalArgumentException("delay must not be negative");
        if (!(duplicateProbability >= 0 && duplicateProbability <= 1)) throw new IllegalArgumentException("duplicate probability must be in [0, 1]");
    }

    /** A direction without outages or a drop list whose corruption flips one bit (netem's corrupt). */
    public DirectionModel(long wireBitsPerSecond, int wireFramingBytes, LossModel loss, double corruptProbability,
                          double duplicateProbability, RateLimiter rateLimiter, int limiterOverheadBytes,
                          QueueLimit queueLimit, boolean sharedLimit, long delayNanos, Jitter jitter, boolean reorder) {
        this(wireBitsPerSecond, wireFramingBytes, loss, Corruption.bitFlip(corruptProbability), duplicateProbability,
                rateLimiter, limiterOverheadBytes, queueLimit, sharedLimit, delayNanos, jitter, reorder, Blackhole.NONE,
                DropList.NONE);
    }

    /** A direction that only delays. */
    public static DirectionModel delayOnly(long delayNanos) {
        return new DirectionModel(0, WireModel.ETHERNET_FRAMING_BYTES, new LossModel.None(), 0, 0, RateLimiter.UNLIMITED, 0,
                QueueLimit.UNLIMITED, false, delayNanos, new Jitter.None(), false);
    }
}
