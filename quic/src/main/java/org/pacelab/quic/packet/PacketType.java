package org.pacelab.quic.packet;

/** QUIC packet types (RFC 9000 §17); their long-header type codes differ in QUIC v2 (RFC 9369 §3.2). */
public enum PacketType {
    INITIAL(PacketSpace.INITIAL, 0x0),
    ZERO_RTT(PacketSpace.APPLICATION, 0x1),
    HANDSHAKE(PacketSpace.HANDSHAKE, 0x2),
    RETRY(null, 0x3),
    VERSION_NEGOTIATION(null, -1),
    ONE_RTT(PacketSpace.APPLICATION, -1);

    private final PacketSpace space;
    private final int longTypeBits;

    PacketType(PacketSpace space, int longTypeBits) {
        this.space = space;
        this.longTypeBits = longTypeBits;
    }

    /** The packet number space, or null for RETRY and VERSION_NEGOTIATION, which carry no packet number. */
    public PacketSpace space() { return space; }

    /** The v1 long-header type bits (RFC 9000 §17.2 Table 5), or -1 when not a typed long-header packet. */
    public int longTypeBits() { return longTypeBits; }

    /**
     * The long-header type bits of this type in {@code version}: v1's (RFC 9000 §17.2), or v2's, which are v1's plus
     * one modulo 4 (RFC 9369 §3.2: Initial 0b01, 0-RTT 0b10, Handshake 0b11, Retry 0b00).
     */
    public int longTypeBits(int version) {
        if (longTypeBits < 0) {
            return -1;
        }
        return version == QuicVersion.V2 ? (longTypeBits + 1) & 0x3 : longTypeBits;
    }

    /** Whether the packet carries a packet number and protected frames. */
    public boolean hasPacketNumber() { return space != null; }

    /** Whether the packet uses the long header form. */
    public boolean isLongHeader() { return this != ONE_RTT; }

    /** The encryption level protecting this packet type, or null for RETRY and VERSION_NEGOTIATION. */
    public EncryptionLevel level() {
        return switch (this) {
            case INITIAL -> EncryptionLevel.INITIAL;
            case ZERO_RTT -> EncryptionLevel.ZERO_RTT;
            case HANDSHAKE -> EncryptionLevel.HANDSHAKE;
            case ONE_RTT -> EncryptionLevel.ONE_RTT;
            case RETRY, VERSION_NEGOTIATION -> null;
        };
    }

    /** The long-header packet type of {@code version} for type bits 0..3. */
    public static PacketType fromLongTypeBits(int version, int bits) {
        return fromLongTypeBits(version == QuicVersion.V2 ? bits + 3 : bits);
    }

    /** The v1 long-header packet type for type bits 0..3 (RFC 9000 §17.2 Table 5). */
    public static PacketType fromLongTypeBits(int bits) {
        return switch (bits & 0x3) {
            case 0 -> INITIAL;
            case 1 -> ZERO_RTT;
            case 2 -> HANDSHAKE;
            default -> RETRY;
        };
    }
}
