package org.pacelab.quic.packet;

/** Packet number spaces, RFC 9000 §12.3. */
public enum PacketSpace {
    INITIAL, HANDSHAKE, APPLICATION;

    public static final PacketSpace[] ALL = values();
}
