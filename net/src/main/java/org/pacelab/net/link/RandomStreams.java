package org.pacelab.net.link;

import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Independent, reproducible random streams derived from one scenario seed: each component asks for a stream
 * by a stable name ("down/loss", "up/jitter", ...), so adding a component never shifts another's samples.
 * Streams are L64X128MixRandom generators seeded with a SplitMix64 mix of the seed and the name's FNV-1a hash.
 */
public final class RandomStreams {
    private static final RandomGeneratorFactory<RandomGenerator> FACTORY = RandomGeneratorFactory.of("L64X128MixRandom");
    private final long seed;

    public RandomStreams(long seed) { this.seed = seed; }

    public long seed() { return seed; }

    public RandomGenerator stream(String name) {
        return FACTORY.create(mix(seed ^ mix(fnv1a(name))));
    }

    private static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64 finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
