package org.pacelab.sim.random;

import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.util.random.RandomGenerator;

/**
 * A SecureRandom over a seeded {@link RandomGenerator}, for the simulation's own explicit draws (its
 * deterministic certificate). Not for anything outside a simulation.
 */
public final class SeededSecureRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;

    public SeededSecureRandom(RandomGenerator generator) {
        super(new Spi(generator), null);
    }

    private static final class Spi extends SecureRandomSpi {
        private static final long serialVersionUID = 1L;
        private final transient RandomGenerator generator;

        Spi(RandomGenerator generator) {
            this.generator = generator;
        }

        @Override
        protected void engineSetSeed(byte[] seed) {
            // deterministic by construction: extra seed material is ignored
        }

        @Override
        protected void engineNextBytes(byte[] bytes) {
            generator.nextBytes(bytes);
        }

        @Override
        protected byte[] engineGenerateSeed(int numBytes) {
            byte[] b = new byte[numBytes];
            generator.nextBytes(b);
            return b;
        }
    }
}
