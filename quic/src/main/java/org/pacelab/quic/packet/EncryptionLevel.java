package org.pacelab.quic.packet;

/** Encryption levels (RFC 9001 §4): each has its own keys; 0-RTT and 1-RTT share a packet number space. */
public enum EncryptionLevel {
    INITIAL(PacketSpace.INITIAL),
    ZERO_RTT(PacketSpace.APPLICATION),
    HANDSHAKE(PacketSpace.HANDSHAKE),
    ONE_RTT(PacketSpace.APPLICATION);

    public static final EncryptionLevel[] ALL = values();

    private final PacketSpace space;

    EncryptionLevel(PacketSpace space) {
        this.space = space;
    }

    /** The packet number space used at this level. */
    public PacketSpace space() { return space; }

    /** The packet type sent at this level. */
    public PacketType packetType() {
        return switch (this) {
            case INITIAL -> PacketType.INITIAL;
            case ZERO_RTT -> PacketType.ZERO_RTT;
            case HANDSHAKE -> PacketType.HANDSHAKE;
            case ONE_RTT -> PacketType.ONE_RTT;
        };
    }
}
