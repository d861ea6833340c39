package org.pacelab.quic.crypto;

/**
 * The TLS 1.3 cipher suites QUIC v1 packet protection supports (RFC 9001 §5.3), with the parameters
 * packet protection needs: AEAD key length, hash for HKDF, and the AEAD usage limits of §6.6.
 */
public enum CipherSuite {
    AES_128_GCM_SHA256(0x1301, 16, "SHA-256", "HmacSHA256", 32, "AES/GCM/NoPadding", 1L << 23, 1L << 52),
    AES_256_GCM_SHA384(0x1302, 32, "SHA-384", "HmacSHA384", 48, "AES/GCM/NoPadding", 1L << 23, 1L << 52),
    CHACHA20_POLY1305_SHA256(0x1303, 32, "SHA-256", "HmacSHA256", 32, "ChaCha20-Poly1305", Long.MAX_VALUE, 1L << 36);

    /** The AEAD authentication tag length of every v1 suite. */
    public static final int TAG_LENGTH = 16;
    /** The AEAD nonce (and IV) length of every v1 suite. */
    public static final int IV_LENGTH = 12;

    private final int tlsCode;
    private final int keyLength;
    private final String hashName;
    private final String macAlgorithm;
    private final int hashLength;
    private final String aeadTransformation;
    private final long confidentialityLimit;
    private final long integrityLimit;

    CipherSuite(int tlsCode, int keyLength, String hashName, String macAlgorithm, int hashLength,
                String aeadTransformation, long confidentialityLimit, long integrityLimit) {
        this.tlsCode = tlsCode;
        this.keyLength = keyLength;
        this.hashName = hashName;
        this.macAlgorithm = macAlgorithm;
        this.hashLength = hashLength;
        this.aeadTransformation = aeadTransformation;
        this.confidentialityLimit = confidentialityLimit;
        this.integrityLimit = integrityLimit;
    }

    /** The TLS CipherSuite code point (RFC 8446 §B.4). */
    public int tlsCode() { return tlsCode; }

    /** The AEAD key length in bytes; the header protection key has the same length (RFC 9001 §5.4). */
    public int keyLength() { return keyLength; }

    /** The JCA name of the suite's hash ("SHA-256" or "SHA-384"), as {@link Hkdf} expects it. */
    public String hashName() { return hashName; }

    /** The hash output length in bytes, the length of traffic secrets. */
    public int hashLength() { return hashLength; }

    /** The JCA HMAC algorithm name of the suite's hash. */
    public String macAlgorithm() { return macAlgorithm; }

    /** The JCA transformation of the AEAD. */
    public String aeadTransformation() { return aeadTransformation; }

    /** Whether header protection uses AES-ECB (true) or ChaCha20 (false), RFC 9001 §5.4.3–5.4.4. */
    public boolean aesHeaderProtection() { return this != CHACHA20_POLY1305_SHA256; }

    /** Packets that may be protected with one key before a key update is needed (RFC 9001 §6.6). */
    public long confidentialityLimit() { return confidentialityLimit; }

    /** Failed decryptions tolerated across all keys before AEAD_LIMIT_REACHED (RFC 9001 §6.6). */
    public long integrityLimit() { return integrityLimit; }

    /** The suite for a TLS code point; IllegalArgumentException for suites QUIC v1 cannot use. */
    public static CipherSuite fromTlsCode(int code) {
        for (CipherSuite s : values()) {
            if (s.tlsCode == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("TLS cipher suite 0x" + Integer.toHexString(code)
                + " is not usable for QUIC packet protection; valid: 0x1301, 0x1302, 0x1303 (RFC 9001 §5.3)");
    }
}
