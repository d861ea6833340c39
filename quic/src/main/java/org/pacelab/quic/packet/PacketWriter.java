package org.pacelab.quic.packet;

import java.nio.ByteBuffer;
import org.pacelab.quic.wire.VarInt;

/**
 * Writes packet headers (RFC 9000 §17.2, §17.3) with the fixed bit set and the reserved bits zero. The
 * caller then writes the packet number ({@link PacketNumbers#write}) and the payload, patches the
 * Length field of long headers, seals the payload and applies header protection.
 */
public final class PacketWriter {
    private PacketWriter() {
    }

    /**
     * Writes an Initial, 0-RTT or Handshake header up to and including a placeholder Length field of
     * {@code lengthFieldBytes} (2 covers packets up to 16383 bytes); the packet number follows at the
     * returned offset plus {@code lengthFieldBytes}.
     *
     * @param token the Initial token (may be empty); must be empty or null for other types
     * @return the absolute offset of the Length field, for {@link #patchLength}
     */
    public static int writeLongHeader(ByteBuffer out, PacketType t, int version, byte[] dcid, byte[] scid, byte[] token,
                                      int pnLength, int lengthFieldBytes) {
        if (t != PacketType.INITIAL && t != PacketType.ZERO_RTT && t != PacketType.HANDSHAKE) {
            throw new IllegalArgumentException("writeLongHeader writes Initial, 0-RTT or Handshake headers, not " + t);
        }
        if (pnLength < 1 || pnLength > 4) {
            throw new IllegalArgumentException("packet number length must be 1..4, not " + pnLength);
        }
        checkCid(dcid, "dcid");
        checkCid(scid, "scid");
        boolean hasToken = token != null && token.length > 0;
        if (hasToken && t != PacketType.INITIAL) {
            throw new IllegalArgumentException("only Initial packets carry a token (RFC 9000 §17.2.2)");
        }
        out.put((byte) (0xc0 | (t.longTypeBits(version) << 4) | (pnLength - 1)));
        out.putInt(version);
        out.put((byte) dcid.length).put(dcid);
        out.put((byte) scid.length).put(scid);
        if (t == PacketType.INITIAL) {
            VarInt.write(out, hasToken ? token.length : 0);
            if (hasToken) {
                out.put(token);
            }
        }
        int lengthOffset = out.position();
        VarInt.writeWithLength(out, 0, lengthFieldBytes);
        return lengthOffset;
    }

    /**
     * Fills in the Length field written by {@link #writeLongHeader}: the packet number length plus the
     * protected payload length including the AEAD tag. The field keeps the size it was written with.
     */
    public static void patchLength(ByteBuffer out, int lengthOffset, int value) {
        int size = 1 << ((out.get(lengthOffset) & 0xff) >>> 6);
        VarInt.putWithLength(out, lengthOffset, value, size);
    }

    /**
     * Writes a 1-RTT short header (RFC 9000 §17.3.1) up to the packet number: first byte
     * 0b01SRRKPP with spin bit S, reserved bits R = 0, key phase K and packet number length PP, then the
     * Destination Connection ID.
     */
    public static void writeShortHeader(ByteBuffer out, boolean keyPhase, boolean spinBit, byte[] dcid, int pnLength) {
        if (pnLength < 1 || pnLength > 4) {
            throw new IllegalArgumentException("packet number length must be 1..4, not " + pnLength);
        }
        checkCid(dcid, "dcid");
        out.put((byte) (0x40 | (spinBit ? 0x20 : 0) | (keyPhase ? 0x04 : 0) | (pnLength - 1)));
        out.put(dcid);
    }

    /** The length of a long header up to and including the Length field. */
    public static int longHeaderLength(PacketType t, byte[] dcid, byte[] scid, byte[] token, int lengthFieldBytes) {
        int n = 1 + 4 + 1 + dcid.length + 1 + scid.length + lengthFieldBytes;
        if (t == PacketType.INITIAL) {
            int tokenLength = token == null ? 0 : token.length;
            n += VarInt.size(tokenLength) + tokenLength;
        }
        return n;
    }

    private static void checkCid(byte[] cid, String name) {
        if (cid == null || cid.length > PacketParser.MAX_CID_LENGTH) {
            throw new IllegalArgumentException(name + " must be 0..20 bytes (RFC 9000 §17.2)");
        }
    }
}
