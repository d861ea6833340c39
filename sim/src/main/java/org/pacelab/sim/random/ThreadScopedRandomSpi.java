package org.pacelab.sim.random;

import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;

/**
 * The SecureRandom engine of {@link DeterministicRandomProvider}: draws from the generator that the calling
 * thread's {@link RandomScope} currently names, and from the JDK's own strong generator (SUN provider) on any
 * thread, or at any moment, where no simulation has bound one. Outside a simulation it is therefore exactly as
 * strong as the JDK default; inside, it is a pure function of the simulation seed.
 */
public final class ThreadScopedRandomSpi extends SecureRandomSpi {
    private static final long serialVersionUID = 1L;

    /** The JDK's generator, taken from the SUN provider by name so it never resolves back to this class. */
    private static final SecureRandom SYSTEM = systemRandom();

    private static SecureRandom systemRandom() {
        for (String algorithm : new String[] {"NativePRNGNonBlocking", "DRBG", "SHA1PRNG"}) {
            try {
                return SecureRandom.getInstance(algorithm, "SUN");
            } catch (NoSuchAlgorithmException | NoSuchProviderException e) {
                // try the next one
            }
        }
        throw new IllegalStateException("the JDK's SUN provider offers no SecureRandom; cannot provide strong randomness");
    }

    @Override
    protected void engineSetSeed(byte[] seed) {
        if (RandomScope.sourceOfCurrentThread() == null) {
            SYSTEM.setSeed(seed);
        }
        // inside a simulation the seed comes from the scenario only; extra seed material would make runs differ
    }

    @Override
    protected void engineNextBytes(byte[] bytes) {
        RandomScope.Source source = RandomScope.sourceOfCurrentThread();
        if (source == null) {
            SYSTEM.nextBytes(bytes);
        } else {
            source.nextBytes(bytes);
        }
    }

    @Override
    protected byte[] engineGenerateSeed(int numBytes) {
        byte[] b = new byte[numBytes];
        engineNextBytes(b);
        return b;
    }
}
