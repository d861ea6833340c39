package org.pacelab.quic.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Packet protection keys for one direction at one encryption level (RFC 9001 §5.1): the AEAD key and
 * IV and the header protection key, derived from a TLS traffic secret with the labels "quic key",
 * "quic iv" and "quic hp" (QUIC v2: "quicv2 key", "quicv2 iv", "quicv2 hp", RFC 9369 §3.3.2).
 *
 * <p>The AEAD is {@link PacketAead#forKey}: OpenSSL's libcrypto through FFM when it loads, else the JDK's.
 * <p>The key material is immutable. Each instance caches its AEAD and header protection ciphers and scratch
 * arrays so the per-packet path allocates almost nothing; therefore an instance is <b>not
 * thread-safe</b>: a connection uses its keys from one thread at a time (the sans-I/O core is
 * single-threaded). Generations made by {@link #nextGeneration()} share the header protection cipher,
 * so the same rule covers them.
 *
 * <p>Buffers are addressed by absolute offsets; their position and limit are not changed.
 */
public final class PacketKeys {
    private final CipherSuite suite;
    private final VersionProtection version;
    private final byte[] secret;
    private final byte[] key;
    private final byte[] iv;
    private final PacketAead aead;
    private final byte[] nonce = new byte[CipherSuite.IV_LENGTH];
    private final HeaderProtector hp;
    private final byte[] mask = new byte[5];

    private PacketKeys(CipherSuite suite, VersionProtection version, byte[] secret, byte[] key, byte[] iv, HeaderProtector hp) {
        this.suite = suite;
        this.version = version;
        this.secret = secret;
        this.key = key;
        this.iv = iv;
        this.hp = hp;
        this.aead = PacketAead.forKey(suite, key);
    }

    /** Derives key, IV and header protection key from a traffic secret with QUIC v1's labels (RFC 9001 §5.1). */
    public static PacketKeys fromSecret(CipherSuite suite, byte[] trafficSecret) {
        return fromSecret(suite, trafficSecret, VersionProtection.V1);
    }

    /** Derives key, IV and header protection key from a traffic secret with the labels of {@code version}. */
    public static PacketKeys fromSecret(CipherSuite suite, byte[] trafficSecret, VersionProtection version) {
        if (trafficSecret.length != suite.hashLength()) {
            throw new IllegalArgumentException("a " + suite + " traffic secret has " + suite.hashLength()
                    + " bytes, not " + trafficSecret.length);
        }
        byte[] secret = trafficSecret.clone();
        byte[] hpKey = Hkdf.expandLabel(suite.hashName(), secret, version.hpLabel(), new byte[0], suite.keyLength());
        return derive(suite, version, secret, new HeaderProtector(suite, hpKey));
    }

    private static PacketKeys derive(CipherSuite suite, VersionProtection version, byte[] secret, HeaderProtector hp) {
        byte[] key = Hkdf.expandLabel(suite.hashName(), secret, version.keyLabel(), new byte[0], suite.keyLength());
        byte[] iv = Hkdf.expandLabel(suite.hashName(), secret, version.ivLabel(), new byte[0], CipherSuite.IV_LENGTH);
        return new PacketKeys(suite, version, secret, key, iv, hp);
    }

    /**
     * The keys after a key update (RFC 9001 §6.1): secret_(n+1) = HKDF-Expand-Label(secret_n, "quic ku" (QUIC v2:
     * "quicv2 ku"), "", Hash.length), new key and IV from it; the header protection key does not change.
     */
    public PacketKeys nextGeneration() {
        byte[] next = Hkdf.expandLabel(suite.hashName(), secret, version.kuLabel(), new byte[0], suite.hashLength());
        return derive(suite, version, next, hp);
    }

    /** The same traffic secret with the labels of another version (RFC 9368 §4: a client that learns the server chose v2). */
    public PacketKeys forVersion(VersionProtection other) {
        return other == version ? this : fromSecret(suite, secret, other);
    }

    public CipherSuite suite() { return suite; }

    /** Whose labels these keys were derived with. */
    public VersionProtection version() { return version; }

    /** A copy of the traffic secret these keys were derived from. */
    public byte[] secret() { return secret.clone(); }

    /** A copy of the AEAD key. */
    public byte[] key() { return key.clone(); }

    /** A copy of the AEAD IV. */
    public byte[] iv() { return iv.clone(); }

    /** A copy of the header protection key. */
    public byte[] hpKey() { return hp.key.clone(); }

    /**
     * AEAD-encrypts a packet payload in place (RFC 9001 §5.3): the associated data is the header at
     * {@code headerOffset} (with the packet number still unmasked), the plaintext is at
     * {@code payloadOffset}, and ciphertext plus the 16-byte tag are written over it. The buffer needs
     * 16 bytes of room after the payload (up to its capacity).
     *
     * @return the ciphertext length, {@code payloadLength + 16}
     * @throws IllegalStateException if the AEAD refuses to encrypt
     */
    public int seal(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int payloadLength,
                    long packetNumber) {
        if (payloadOffset + payloadLength + CipherSuite.TAG_LENGTH > packet.capacity()) {
            throw new IllegalArgumentException("no room for the " + CipherSuite.TAG_LENGTH + "-byte AEAD tag: payload ends at "
                    + (payloadOffset + payloadLength) + ", buffer capacity " + packet.capacity());
        }
        return aead.seal(packet, headerOffset, headerLength, payloadOffset, payloadLength, nonce(packetNumber),
                packetNumber);
    }

    /**
     * AEAD-decrypts a packet payload in place; the plaintext starts at {@code payloadOffset}.
     *
     * @param ciphertextLength the protected payload length including the 16-byte tag
     * @return the plaintext length, {@code ciphertextLength - 16}
     * @throws AeadException when the packet does not authenticate (or is shorter than a tag)
     */
    public int open(ByteBuffer packet, int headerOffset, int headerLength, int payloadOffset, int ciphertextLength,
                    long packetNumber) throws AeadException {
        if (ciphertextLength < CipherSuite.TAG_LENGTH) {
            throw new AeadException("packet " + packetNumber + " payload of " + ciphertextLength
                    + " bytes is shorter than the 16-byte AEAD tag");
        }
        return aead.open(packet, headerOffset, headerLength, payloadOffset, ciphertextLength, nonce(packetNumber),
                packetNumber);
    }

    /**
     * Computes the 5-byte header protection mask from the 16-byte sample at {@code sampleOffset}
     * (RFC 9001 §5.4): AES-ECB(hp, sample) for AES suites; for ChaCha20 the keystream of
     * ChaCha20(hp, counter = sample[0..4] little-endian, nonce = sample[4..16]) applied to 5 zero bytes.
     */
    public void headerProtectionMask(ByteBuffer packet, int sampleOffset, byte[] mask5) {
        if (sampleOffset < 0 || sampleOffset + 16 > packet.limit()) {
            throw new IllegalArgumentException("header protection sample at " + sampleOffset + ".." + (sampleOffset + 16)
                    + " lies outside the packet (limit " + packet.limit() + ")");
        }
        hp.mask(packet, sampleOffset, mask5);
    }

    /** Scratch for {@link HeaderProtection}; valid until the next call on these keys. */
    byte[] maskScratch() {
        return mask;
    }

    /** The AEAD nonce of a packet in a scratch array (valid until the next call). */
    private byte[] nonce(long packetNumber) {
        // RFC 9001 §5.3: the nonce is the IV XORed with the packet number, left-padded to the IV length.
        System.arraycopy(iv, 0, nonce, 0, nonce.length);
        for (int i = 0; i < 8; i++) {
            nonce[nonce.length - 1 - i] ^= (byte) (packetNumber >>> (8 * i));
        }
        return nonce;
    }

    static Cipher cipher(String transformation) {
        try {
            return Cipher.getInstance(transformation);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks cipher " + transformation, e);
        }
    }

    /** The header protection cipher, shared by all generations of a key (RFC 9001 §6.1). */
    private static final class HeaderProtector {
        private static final byte[] ZEROS = new byte[5];
        private final boolean aes;
        private final byte[] key;
        private final SecretKeySpec keySpec;
        private final Cipher cipher;
        private final byte[] block = new byte[16];

        HeaderProtector(CipherSuite suite, byte[] key) {
            this.aes = suite.aesHeaderProtection();
            this.key = key;
            this.keySpec = new SecretKeySpec(key, aes ? "AES" : "ChaCha20");
            this.cipher = cipher(aes ? "AES/ECB/NoPadding" : "ChaCha20");
            if (aes) {
                try {
                    cipher.init(Cipher.ENCRYPT_MODE, keySpec);
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("cannot initialise AES header protection", e);
                }
            }
        }

        void mask(ByteBuffer packet, int sampleOffset, byte[] mask5) {
            try {
                if (aes) {
                    // §5.4.3: mask = AES-ECB(hp_key, sample)
                    if (packet.hasArray()) {
                        cipher.update(packet.array(), packet.arrayOffset() + sampleOffset, 16, block, 0);
                    } else {
                        packet.get(sampleOffset, block, 0, 16);
                        cipher.update(block, 0, 16, block, 0);
                    }
                    System.arraycopy(block, 0, mask5, 0, 5);
                } else {
                    // §5.4.4: counter = sample[0..3] little-endian, nonce = sample[4..15]. DECRYPT_MODE yields the
                    // same keystream XOR and lets a duplicated packet repeat a sample without the JDK's
                    // encrypt-side nonce-reuse guard rejecting it.
                    packet.get(sampleOffset, block, 0, 16);
                    int counter = (block[0] & 0xff) | (block[1] & 0xff) << 8 | (block[2] & 0xff) << 16 | (block[3] & 0xff) << 24;
                    byte[] chachaNonce = java.util.Arrays.copyOfRange(block, 4, 16);
                    cipher.init(Cipher.DECRYPT_MODE, keySpec, new ChaCha20ParameterSpec(chachaNonce, counter));
                    cipher.doFinal(ZEROS, 0, 5, mask5, 0);
                }
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("header protection mask computation failed", e);
            }
        }
    }
}
