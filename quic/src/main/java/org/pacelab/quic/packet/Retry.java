package org.pacelab.quic.packet;

import java.nio.ByteBuffer;
import org.pacelab.quic.crypto.RetryIntegrity;
import org.pacelab.quic.crypto.VersionProtection;

/** Retry packets (RFC 9000 §17.2.5) with their integrity tag (RFC 9001 §5.8). */
public final class Retry {
    private Retry() {
    }

    /** Builds a Retry packet with the unused bits of the first byte zero. */
    public static byte[] build(int version, byte[] dcid, byte[] scid, byte[] originalDcid, byte[] token) {
        return build(version, dcid, scid, originalDcid, token, 0);
    }

    /**
     * Builds a Retry packet: first byte 0b11TTUUUU (TT = the version's Retry type, 0b11 in v1, 0b00 in v2; U =
     * {@code unusedBits}, arbitrary per §17.2.5),
     * version, DCID (the client's SCID), SCID (the server's new connection ID), token, integrity tag
     * computed over the pseudo-packet with {@code originalDcid}.
     */
    public static byte[] build(int version, byte[] dcid, byte[] scid, byte[] originalDcid, byte[] token, int unusedBits) {
        if (dcid.length > PacketParser.MAX_CID_LENGTH || scid.length > PacketParser.MAX_CID_LENGTH) {
            throw new IllegalArgumentException("connection IDs must be 0..20 bytes (RFC 9000 §17.2)");
        }
        if (token.length == 0) {
            throw new IllegalArgumentException("a Retry token must not be empty (RFC 9000 §17.2.5.2)");
        }
        int bodyLength = 7 + dcid.length + scid.length + token.length;
        ByteBuffer b = ByteBuffer.allocate(bodyLength + RetryIntegrity.TAG_LENGTH);
        b.put((byte) (0xc0 | PacketType.RETRY.longTypeBits(version) << 4 | (unusedBits & 0x0f)));
        b.putInt(version);
        b.put((byte) dcid.length).put(dcid);
        b.put((byte) scid.length).put(scid);
        b.put(token);
        b.put(RetryIntegrity.tag(VersionProtection.of(version), originalDcid, ByteBuffer.wrap(b.array(), 0, bodyLength)));
        return b.array();
    }

    /**
     * Whether the Retry packet {@code retry}, parsed from {@code datagram}, carries a valid integrity
     * tag for the Destination Connection ID of the client's first Initial. A client discards a Retry
     * that fails this check (RFC 9000 §17.2.5.2).
     */
    public static boolean verify(ByteBuffer datagram, ParsedPacket retry, byte[] originalDcid) {
        if (retry.type() != PacketType.RETRY) {
            return false;
        }
        byte[] packet = new byte[retry.packetEnd() - retry.headerStart()];
        datagram.get(retry.headerStart(), packet);
        return QuicVersion.isKnown(retry.version()) && RetryIntegrity.verify(VersionProtection.of(retry.version()), originalDcid, packet);
    }
}
