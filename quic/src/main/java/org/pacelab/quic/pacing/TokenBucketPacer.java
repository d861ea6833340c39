package org.pacelab.quic.pacing;

/**
 * Pacing {@code token-bucket}: a bucket of byte tokens, as quic-go's {@code pacer.go} and quinn's
 * {@code pacing.rs}. Tokens accrue at the pacing rate up to the bucket's capacity, the quantum; a packet
 * may leave when the bucket holds at least its size (a packet larger than the quantum needs a full bucket)
 * and takes its size out (never below zero). After idle the sender may burst one quantum.
 *
 * <p>Differences from the references, on purpose: quic-go never schedules the next packet less than 1 ms
 * after the previous one (its timer granularity) and quinn waits for a full bucket before sending again;
 * both are host-timer decisions that belong to the runtime's send strategy here. Their capacities (quic-go:
 * max(2 ms of rate, 10 packets); quinn: 2 ms of window/RTT clamped to [10, 256] packets and to 10 ms) are
 * reproduced by choosing {@code --quantum}. The token arithmetic is exact (tokens are kept in bytes * 10^9).
 * The bucket starts empty once a rate is known (see {@link RateBasedPacer} for the initial burst).
 */
public final class TokenBucketPacer extends RateBasedPacer {
    private static final long SCALE = 1_000_000_000L;

    private boolean started;
    private long tokens;
    private long lastUpdate;

    public TokenBucketPacer(int initialBurst) {
        super(initialBurst);
    }

    @Override
    public String name() { return "token-bucket"; }

    /** Tokens in the bucket, bytes (rounded down). */
    public long tokens() { return tokens / SCALE; }

    private long capacity(PacingRate r) {
        return r.quantum() * SCALE;
    }

    private void refill(long now, PacingRate r) {
        if (now <= lastUpdate) {
            return;
        }
        long cap = capacity(r);
        long dt = now - lastUpdate;
        lastUpdate = now;
        long room = cap - tokens;
        if (room <= 0) {
            tokens = Math.min(tokens, cap);
            return;
        }
        // rate * dt >= room means the bucket fills; compare without overflow
        if (dt >= room / r.bytesPerSecond() + 1) {
            tokens = cap;
        } else {
            tokens = Math.min(cap, tokens + r.bytesPerSecond() * dt);
        }
    }

    private long need(PacingRate r, int size) {
        return Math.min((long) size * SCALE, capacity(r));
    }

    @Override
    protected long earliestRelease(long now, int size) {
        PacingRate r = rate();
        refill(now, r);
        long need = need(r, size);
        if (tokens >= need) {
            return now;
        }
        long missing = need - tokens;
        return now + (missing + r.bytesPerSecond() - 1) / r.bytesPerSecond();
    }

    @Override
    protected void recordSend(long intended, long departure, int size) {
        refill(departure, rate());
        tokens = Math.max(0, tokens - (long) size * SCALE);
    }

    @Override
    protected void rateChanged(long now, PacingRate previous, PacingRate current) {
        if (!started) {
            started = true;
            lastUpdate = now;
            tokens = 0;
            return;
        }
        refill(now, previous != null ? previous : current);
        tokens = Math.min(tokens, capacity(current));
    }
}
