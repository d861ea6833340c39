package org.pacelab.quic.packet;

/** QUIC version numbers (RFC 9000 §15, RFC 8999 §5.4). */
public final class QuicVersion {
    /** QUIC version 1, RFC 9000. */
    public static final int V1 = 0x0000_0001;
    /** QUIC version 2, RFC 9369 (same features as v1; other Initial salt, HKDF labels, Retry key and packet type codes). */
    public static final int V2 = 0x6b33_43cf;
    /** The version field of a Version Negotiation packet (RFC 9000 §17.2.1). */
    public static final int NEGOTIATION = 0;

    private QuicVersion() {
    }

    /** Whether this implementation speaks {@code version}: QUIC v1 and v2 (RFC 9369). */
    public static boolean isSupported(int version) {
        return version == V1 || version == V2;
    }

    /** Whether packets of {@code version} can be parsed and protected here (its header layout and keys are known). */
    public static boolean isKnown(int version) {
        return version == V1 || version == V2;
    }

    /** A short name for messages and logs: "v1", "v2" or the number in hex. */
    public static String name(int version) {
        return version == V1 ? "v1" : version == V2 ? "v2" : "0x" + Integer.toHexString(version);
    }

    /** Whether {@code version} has the 0x?a?a?a?a pattern reserved to exercise negotiation (RFC 9000 §15). */
    public static boolean isReservedForNegotiation(int version) {
        return (version & 0x0f0f0f0f) == 0x0a0a0a0a;
    }

    /** A version of the reserved pattern chosen by {@code randomBits} (for greasing, RFC 9000 §6.3). */
    public static int reserved(int randomBits) {
        return (randomBits & 0xf0f0f0f0) | 0x0a0a0a0a;
    }
}
