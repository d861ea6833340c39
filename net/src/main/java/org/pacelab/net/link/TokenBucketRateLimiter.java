package org.pacelab.net.link;

/**
 * A token bucket like Linux's tbf qdisc: tokens accrue at the rate up to the bucket depth (burst); the head
 * packet leaves as soon as the bucket holds its size, taking those tokens. After an idle period up to
 * {@code burst} bytes leave back to back; a backlogged queue drains at exactly the rate. Packets larger than
 * the bucket can never leave and are refused ({@link #accepts}), as tbf drops them.
 * Tokens are kept in bit-nanoseconds, so accounting is exact.
 */
public final class TokenBucketRateLimiter implements RateLimiter {
    private static final long NANOS = 1_000_000_000L;
    private final long bitsPerSecond;
    private final long burstBytes;
    private final long capacity; // burst in bit-ns (bytes * 8 * 1e9)
    private long tokens;         // bit-ns at time lastUpdate
    private long lastUpdate;
    private long lastDeparture = Long.MIN_VALUE;

    public TokenBucketRateLimiter(long bitsPerSecond, long burstBytes) {
        if (bitsPerSecond <= 0) throw new IllegalArgumentException("rate must be positive");
        if (burstBytes <= 0) throw new IllegalArgumentException("burst must be positive");
        this.bitsPerSecond = bitsPerSecond;
        this.burstBytes = burstBytes;
        this.capacity = Math.multiplyExact(burstBytes, 8L * NANOS);
        this.tokens = capacity; // a new tbf starts with a full bucket
        this.lastUpdate = Long.MIN_VALUE;
    }

    @Override
    public boolean accepts(int bytes) { return bytes <= burstBytes; }

    private long tokensAt(long t) {
        if (lastUpdate == Long.MIN_VALUE) return capacity;
        long dt = t - lastUpdate;
        if (dt <= 0) return tokens;
        long room = capacity - tokens;
        if (dt >= room / bitsPerSecond + 1) return capacity;
        return Math.min(capacity, tokens + dt * bitsPerSecond);
    }

    @Override
    public long schedule(int bytes, long arrival, long headSince) {
        if (!accepts(bytes)) return Long.MAX_VALUE;
        long t0 = lastDeparture == Long.MIN_VALUE ? headSince : Math.max(headSince, lastDeparture);
        long available = tokensAt(t0);
        long need = bytes * 8L * NANOS;
        long departure;
        if (available >= need) {
            departure = t0;
            tokens = available - need;
        } else {
            long wait = ceilDiv(need - available, bitsPerSecond);
            departure = t0 + wait;
            tokens = available + wait * bitsPerSecond - need;
        }
        lastUpdate = departure;
        lastDeparture = departure;
        return departure;
    }

    private static long ceilDiv(long a, long b) { return -Math.floorDiv(-a, b); }

    @Override
    public long meanBitsPerSecond() { return bitsPerSecond; }
}
