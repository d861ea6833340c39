package org.pacelab.quic.packet;

import java.nio.ByteBuffer;
import org.pacelab.quic.crypto.RetryIntegrity;

/**
 * Locates packets in a datagram (RFC 8999 invariants, RFC 9000 §17) without removing protection.
 * Offsets are absolute; the datagram ends at the buffer's limit; the buffer's position is not changed.
 * Any input yields either a {@link ParsedPacket} or a {@link MalformedPacketException}, never an
 * unchecked exception.
 */
public final class PacketParser {
    /** The largest connection ID length in QUIC v1 (RFC 9000 §17.2). */
    public static final int MAX_CID_LENGTH = 20;

    private PacketParser() {
    }

    /**
     * Parses the packet starting at {@code offset}. Walk coalesced packets (RFC 9000 §12.2) by calling
     * again at {@link ParsedPacket#packetEnd()} until it reaches the datagram's limit.
     *
     * @param shortHeaderDcidLength the length of the connection IDs this endpoint issued, used for short
     *                              headers (which do not encode it)
     * @throws MalformedPacketException when the header is truncated or invalid; discard the rest of the
     *                                  datagram
     */
    public static ParsedPacket parse(ByteBuffer datagram, int offset, int shortHeaderDcidLength) throws MalformedPacketException {
        int end = datagram.limit();
        if (offset < 0 || offset >= end) {
            throw new MalformedPacketException(offset, "no packet: offset is at or beyond the datagram end " + end);
        }
        int first = datagram.get(offset) & 0xff;
        if ((first & 0x80) == 0) {
            return parseShort(datagram, offset, end, first, shortHeaderDcidLength);
        }
        return parseLong(datagram, offset, end, first);
    }

    private static ParsedPacket parseShort(ByteBuffer d, int offset, int end, int first, int dcidLength)
            throws MalformedPacketException {
        if ((first & 0x40) == 0) {
            throw new MalformedPacketException(offset, "short header with the fixed bit (0x40) clear (RFC 9000 §17.3.1)");
        }
        if (dcidLength < 0 || dcidLength > MAX_CID_LENGTH) {
            throw new MalformedPacketException(offset, "short header connection ID length " + dcidLength + " is outside 0..20");
        }
        int pnOffset = offset + 1 + dcidLength;
        if (pnOffset + 1 > end) {
            throw new MalformedPacketException(offset, "short header packet of " + (end - offset)
                    + " bytes ends before its packet number (connection ID length " + dcidLength + ")");
        }
        byte[] dcid = bytes(d, offset + 1, dcidLength);
        return new ParsedPacket(PacketType.ONE_RTT, 0, true, dcid, ParsedPacket.EMPTY, ParsedPacket.EMPTY, end - pnOffset,
                offset, pnOffset, end, ParsedPacket.NO_VERSIONS, ParsedPacket.EMPTY);
    }

    private static ParsedPacket parseLong(ByteBuffer d, int offset, int end, int first) throws MalformedPacketException {
        // RFC 8999 §5.1: version (32), DCID length (8), DCID, SCID length (8), SCID.
        if (end - offset < 7) {
            throw new MalformedPacketException(offset, "long header of " + (end - offset) + " bytes is shorter than the 7-byte minimum");
        }
        int version = d.getInt(offset + 1);
        boolean known = QuicVersion.isKnown(version);
        int maxCid = known ? MAX_CID_LENGTH : 255;
        int pos = offset + 5;
        int dcidLength = d.get(pos++) & 0xff;
        if (dcidLength > maxCid) {
            throw new MalformedPacketException(offset, "Destination Connection ID length " + dcidLength + " exceeds 20 (RFC 9000 §17.2)");
        }
        if (pos + dcidLength + 1 > end) {
            throw new MalformedPacketException(offset, "long header ends inside the Destination Connection ID");
        }
        byte[] dcid = bytes(d, pos, dcidLength);
        pos += dcidLength;
        int scidLength = d.get(pos++) & 0xff;
        if (scidLength > maxCid) {
            throw new MalformedPacketException(offset, "Source Connection ID length " + scidLength + " exceeds 20 (RFC 9000 §17.2)");
        }
        if (pos + scidLength > end) {
            throw new MalformedPacketException(offset, "long header ends inside the Source Connection ID");
        }
        byte[] scid = bytes(d, pos, scidLength);
        pos += scidLength;

        if (version == QuicVersion.NEGOTIATION) {
            return versionNegotiation(d, offset, end, pos, dcid, scid);
        }
        if (!known) {
            return new ParsedPacket(null, version, false, dcid, scid, ParsedPacket.EMPTY, end - pos, offset, -1, end,
                    ParsedPacket.NO_VERSIONS, ParsedPacket.EMPTY);
        }
        if ((first & 0x40) == 0) {
            throw new MalformedPacketException(offset, "long header with the fixed bit (0x40) clear (RFC 9000 §17.2)");
        }
        PacketType type = PacketType.fromLongTypeBits(version, first >>> 4);
        if (type == PacketType.RETRY) {
            return retry(d, offset, end, pos, version, dcid, scid);
        }
        byte[] token = ParsedPacket.EMPTY;
        if (type == PacketType.INITIAL) {
            long tokenLength = varint(d, pos, end, offset, "Token Length");
            pos += encodedSize(d, pos);
            if (tokenLength > end - pos) {
                throw new MalformedPacketException(offset, "Initial Token Length " + tokenLength + " exceeds the "
                        + (end - pos) + " bytes left in the datagram");
            }
            token = bytes(d, pos, (int) tokenLength);
            pos += (int) tokenLength;
        }
        long length = varint(d, pos, end, offset, "Length");
        pos += encodedSize(d, pos);
        if (length > end - pos) {
            throw new MalformedPacketException(offset, type + " Length " + length + " exceeds the " + (end - pos)
                    + " bytes left in the datagram (RFC 9000 §17.2)");
        }
        if (length < 1) {
            throw new MalformedPacketException(offset, type + " Length 0 leaves no room for a packet number");
        }
        return new ParsedPacket(type, version, QuicVersion.isSupported(version), dcid, scid, token, (int) length, offset, pos, pos + (int) length,
                ParsedPacket.NO_VERSIONS, ParsedPacket.EMPTY);
    }

    private static ParsedPacket versionNegotiation(ByteBuffer d, int offset, int end, int pos, byte[] dcid, byte[] scid)
            throws MalformedPacketException {
        int n = end - pos;
        if (n == 0 || n % 4 != 0) {
            throw new MalformedPacketException(offset, "Version Negotiation packet carries " + n
                    + " bytes of versions; a non-empty multiple of 4 is required (RFC 9000 §17.2.1)");
        }
        int[] versions = new int[n / 4];
        for (int i = 0; i < versions.length; i++) {
            versions[i] = d.getInt(pos + 4 * i);
        }
        return new ParsedPacket(PacketType.VERSION_NEGOTIATION, QuicVersion.NEGOTIATION, true, dcid, scid, ParsedPacket.EMPTY,
                n, offset, -1, end, versions, ParsedPacket.EMPTY);
    }

    private static ParsedPacket retry(ByteBuffer d, int offset, int end, int pos, int version, byte[] dcid, byte[] scid)
            throws MalformedPacketException {
        int tokenLength = end - pos - RetryIntegrity.TAG_LENGTH;
        if (tokenLength < 0) {
            throw new MalformedPacketException(offset, "Retry packet too short for its 16-byte integrity tag (RFC 9000 §17.2.5)");
        }
        byte[] token = bytes(d, pos, tokenLength);
        byte[] tag = bytes(d, end - RetryIntegrity.TAG_LENGTH, RetryIntegrity.TAG_LENGTH);
        return new ParsedPacket(PacketType.RETRY, version, QuicVersion.isSupported(version), dcid, scid, token, end - pos, offset, -1, end,
                ParsedPacket.NO_VERSIONS, tag);
    }

    /**
     * The Destination Connection ID of the first packet of a datagram (from its position to its limit)
     * for routing it to a connection (RFC 9000 §5.2); for short headers the length is the one this
     * endpoint issues. Returns null when the datagram is too short or the length is invalid.
     */
    public static byte[] peekDestinationConnectionId(ByteBuffer datagram, int shortDcidLength) {
        int start = datagram.position();
        int end = datagram.limit();
        if (start >= end) {
            return null;
        }
        int first = datagram.get(start) & 0xff;
        if ((first & 0x80) == 0) {
            if (shortDcidLength < 0 || start + 1 + shortDcidLength > end) {
                return null;
            }
            return bytes(datagram, start + 1, shortDcidLength);
        }
        if (end - start < 6) {
            return null;
        }
        int length = datagram.get(start + 5) & 0xff;
        if (start + 6 + length > end) {
            return null;
        }
        return bytes(datagram, start + 6, length);
    }

    private static long varint(ByteBuffer d, int pos, int end, int offset, String field) throws MalformedPacketException {
        if (pos >= end) {
            throw new MalformedPacketException(offset, "long header ends before its " + field + " field");
        }
        int len = encodedSize(d, pos);
        if (pos + len > end) {
            throw new MalformedPacketException(offset, "long header ends inside its " + field + " field");
        }
        long v = d.get(pos) & 0x3f;
        for (int i = 1; i < len; i++) {
            v = (v << 8) | (d.get(pos + i) & 0xff);
        }
        return v;
    }

    private static int encodedSize(ByteBuffer d, int pos) {
        return 1 << ((d.get(pos) & 0xff) >>> 6);
    }

    private static byte[] bytes(ByteBuffer d, int at, int n) {
        if (n == 0) {
            return ParsedPacket.EMPTY;
        }
        byte[] out = new byte[n];
        d.get(at, out);
        return out;
    }
}
