package org.pacelab.quic.crypto;

import java.nio.ByteBuffer;

/**
 * The AEAD of packet payloads under one key (RFC 9001 §5.3), in place: the associated data is the header, the
 * ciphertext is followed by the 16-byte tag. Two implementations give the same bytes: {@link JdkAead} (the JDK's
 * JCA provider) and {@link LibcryptoAead} (OpenSSL's libcrypto through FFM, chosen when the library loads; see
 * {@link #forKey}). Not thread-safe: the keys' owner uses it from one thread at a time.
 */
interface PacketAead {
    /** Seals {@code payloadLength} bytes at {@code payloadOffset}; returns {@code payloadLength + 16}. */
    int seal(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int payloadLength,
             byte[] nonce, long packetNumber);

    /**
     * Opens {@code ciphertextLength} bytes (tag included) at {@code payloadOffset}; returns the plaintext length.
     *
     * @throws AeadException when the packet does not authenticate
     */
    int open(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int ciphertextLength,
             byte[] nonce, long packetNumber) throws AeadException;

    /**
     * The AEAD for {@code key}: libcrypto's when it is available and not switched off with the system property
     * {@code pacelab.aead=jdk}, else the JDK's. Measured per 1,400-byte packet on a fresh JVM (docs/benchmarks.md,
     * "AES-GCM"), libcrypto sealed a GiB's worth of packets with about half the process CPU time of the JDK, whose
     * Java code runs interpreted and C1-compiled until C2 has compiled it.
     */
    static PacketAead forKey(CipherSuite suite, byte[] key) {
        if (LibcryptoAead.available() && !"jdk".equals(System.getProperty("pacelab.aead"))) {
            return new LibcryptoAead(suite, key);
        }
        return new JdkAead(suite, key);
    }
}
