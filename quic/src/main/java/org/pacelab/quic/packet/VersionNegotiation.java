package org.pacelab.quic.packet;

import java.nio.ByteBuffer;

/** Version Negotiation packets (RFC 9000 §6, §17.2.1). */
public final class VersionNegotiation {
    private VersionNegotiation() {
    }

    /**
     * Builds a Version Negotiation packet answering a client packet: {@code dcidOfReply} is the client's
     * Source Connection ID and {@code scidOfReply} the Destination Connection ID it chose (§17.2.1).
     * The unused bits of the first byte come from {@code randomFirstByte}, with 0x40 set so the packet
     * looks like QUIC to demultiplexers (RFC 9000 §17.2.1, RFC 7983).
     */
    public static byte[] build(byte[] dcidOfReply, byte[] scidOfReply, int[] versions, int randomFirstByte) {
        if (versions.length == 0) {
            throw new IllegalArgumentException("a Version Negotiation packet lists at least one version");
        }
        if (dcidOfReply.length > 255 || scidOfReply.length > 255) {
            throw new IllegalArgumentException("connection IDs of a Version Negotiation packet are at most 255 bytes (RFC 8999)");
        }
        ByteBuffer b = ByteBuffer.allocate(7 + dcidOfReply.length + scidOfReply.length + 4 * versions.length);
        b.put((byte) (0x80 | 0x40 | (randomFirstByte & 0x3f)));
        b.putInt(QuicVersion.NEGOTIATION);
        b.put((byte) dcidOfReply.length).put(dcidOfReply);
        b.put((byte) scidOfReply.length).put(scidOfReply);
        for (int v : versions) {
            b.putInt(v);
        }
        return b.array();
    }

    /**
     * The Supported Versions of a Version Negotiation packet.
     *
     * @throws MalformedPacketException if {@code packet} is not a well-formed Version Negotiation packet
     */
    public static int[] versions(byte[] packet) throws MalformedPacketException {
        ParsedPacket p = PacketParser.parse(ByteBuffer.wrap(packet), 0, 0);
        if (p.type() != PacketType.VERSION_NEGOTIATION) {
            throw new MalformedPacketException(0, "not a Version Negotiation packet (version field is not 0)");
        }
        return p.versions();
    }
}
