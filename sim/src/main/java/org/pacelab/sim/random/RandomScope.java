package org.pacelab.sim.random;

import java.util.random.RandomGenerator;

/**
 * The calling thread's binding of {@link ThreadScopedRandomSpi} to a seeded stream. A simulation runs on one
 * thread and switches the binding to the stream of the endpoint it is about to run ({@link #use}), so the client's
 * and the server's TLS randomness are separate, reproducible streams; {@link #clear} returns the thread to the
 * JDK's strong generator. Each thread has its own scope, so simulations on different threads never share a stream.
 */
public final class RandomScope {
    private static final ThreadLocal<RandomScope> SCOPES = ThreadLocal.withInitial(RandomScope::new);

    private Source current;

    private RandomScope() {}

    /** The scope of the calling thread. */
    public static RandomScope ofCurrentThread() {
        return SCOPES.get();
    }

    static Source sourceOfCurrentThread() {
        return SCOPES.get().current;
    }

    /** From now on this thread's SecureRandom draws come from {@code source}. */
    public void use(Source source) {
        this.current = source;
    }

    /** This thread's draws come from the JDK's generator again. */
    public void clear() {
        this.current = null;
    }

    /**
     * A seeded stream that remembers the 32-byte values it produced, so a caller can check afterwards that a
     * handshake random was drawn from it (see {@link #produced(byte[])}).
     */
    public static final class Source {
        private static final int REMEMBERED = 16;
        private final RandomGenerator generator;
        private final byte[][] recent32 = new byte[REMEMBERED][];
        private int recentCount;
        private long bytesDrawn;

        public Source(RandomGenerator generator) {
            this.generator = generator;
        }

        void nextBytes(byte[] bytes) {
            generator.nextBytes(bytes);
            bytesDrawn += bytes.length;
            if (bytes.length == 32 && recentCount < REMEMBERED) {
                recent32[recentCount++] = bytes.clone();
            }
        }

        /** Whether this stream produced exactly these 32 bytes among its first 32-byte draws. */
        public boolean produced(byte[] value) {
            for (int i = 0; i < recentCount; i++) {
                if (java.util.Arrays.equals(recent32[i], value)) {
                    return true;
                }
            }
            return false;
        }

        public long bytesDrawn() {
            return bytesDrawn;
        }
    }
}
