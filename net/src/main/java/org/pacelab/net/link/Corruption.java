package org.pacelab.net.link;

import java.nio.ByteBuffer;
import java.util.random.RandomGenerator;

/**
 * Which packets the link corrupts and how. A chosen packet reaches the receiver with one byte changed in a copy of
 * its payload (the sender's buffer is never touched): one random bit flipped (netem's {@code corrupt}), or the whole
 * byte replaced by a different random value (the QUIC Interop Runner's {@code corrupt-rate} scenario,
 * quic-network-simulator {@code sim/scenarios/corrupt-rate}). The byte is taken uniformly from the first
 * {@code within} bytes of the payload. At most {@code maxBurst} packets in a row are corrupted (0 = no limit): after
 * that many the next one passes untouched, as the runner's {@code burst_to_client}/{@code burst_to_server} do.
 * QUIC Version Negotiation packets (long header, version 0) are never corrupted and end a run of corrupted packets,
 * as in the runner: a client must be able to see the Version Negotiation a corrupted Initial version elicits.
 * Keeps the length of the current run, so each direction has its own instance.
 */
public final class Corruption {
    /** Corrupts nothing. */
    public static final Corruption NONE = new Corruption(0, 0, Integer.MAX_VALUE, false);

    private final double probability;
    private final int maxBurst;
    private final int within;
    private final boolean replaceByte;
    private int inARow;

    /**
     * @param probability chance that a packet is corrupted
     * @param maxBurst    most packets corrupted in a row (0 = unlimited)
     * @param within      the corrupted byte lies in the first {@code within} bytes of the payload
     * @param replaceByte replace a whole byte with a different random value instead of flipping one bit
     */
    public Corruption(double probability, int maxBurst, int within, boolean replaceByte) {
        if (!(probability >= 0 && probability <= 1)) throw new IllegalArgumentException("corrupt probability must be in [0, 1]");
        if (maxBurst < 0) throw new IllegalArgumentException("corrupt burst must not be negative");
        if (within < 1) throw new IllegalArgumentException("corrupt window must be at least 1 byte");
        this.probability = probability;
        this.maxBurst = maxBurst;
        this.within = within;
        this.replaceByte = replaceByte;
    }

    /** Flips one random bit anywhere in the payload with the given probability (netem's corrupt). */
    public static Corruption bitFlip(double probability) {
        return probability == 0 ? NONE : new Corruption(probability, 0, Integer.MAX_VALUE, false);
    }

    public double probability() { return probability; }

    public boolean active() { return probability > 0; }

    /** A corrupted copy of {@code p}, or null when this packet passes unchanged. */
    Packet apply(Packet p, RandomGenerator rng) {
        if (probability == 0) return null;
        ByteBuffer src = p.payload();
        if (isVersionNegotiation(src) || (maxBurst > 0 && inARow >= maxBurst)) {
            inARow = 0;
            return null;
        }
        if (!(rng.nextDouble() < probability)) {
            inARow = 0;
            return null;
        }
        inARow++;
        if (src == null || !src.hasRemaining()) return p; // nothing to change (a simulation may carry no bytes)
        ByteBuffer copy = ByteBuffer.allocate(src.remaining());
        copy.put(src.duplicate()).flip();
        int at = rng.nextInt(Math.min(within, copy.remaining()));
        int change = replaceByte ? 1 + rng.nextInt(255) : 1 << rng.nextInt(8);
        copy.put(at, (byte) (copy.get(at) ^ change));
        return p.withPayload(copy);
    }

    /** A QUIC long-header packet with version 0 (RFC 9000 §17.2.1). */
    static boolean isVersionNegotiation(ByteBuffer b) {
        if (b == null || b.remaining() < 5) return false;
        int s = b.position();
        return (b.get(s) & 0x80) != 0 && b.get(s + 1) == 0 && b.get(s + 2) == 0 && b.get(s + 3) == 0 && b.get(s + 4) == 0;
    }

    @Override
    public String toString() {
        return "corrupt " + probability + (maxBurst > 0 ? " burst " + maxBurst : "")
                + (within != Integer.MAX_VALUE ? " within " + within : "") + (replaceByte ? " byte" : " bit");
    }
}
