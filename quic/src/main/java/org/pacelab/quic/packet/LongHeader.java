package org.pacelab.quic.packet;

import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;

/**
 * The header of an Initial, 0-RTT or Handshake packet (RFC 9000 §17.2) as located in a datagram.
 * {@code token} is empty except for Initial packets; {@code length} is the value of the Length field
 * (packet number plus protected payload); {@code packetEnd = pnOffset + length}. Arrays not copied.
 */
public record LongHeader(PacketType type, int version, byte[] dcid, byte[] scid, byte[] token, int length, int pnOffset,
                         int headerStart, int packetEnd) {
    public LongHeader {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(dcid, "dcid");
        Objects.requireNonNull(scid, "scid");
        Objects.requireNonNull(token, "token");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LongHeader h && h.type == type && h.version == version && Arrays.equals(h.dcid, dcid)
                && Arrays.equals(h.scid, scid) && Arrays.equals(h.token, token) && h.length == length
                && h.pnOffset == pnOffset && h.headerStart == headerStart && h.packetEnd == packetEnd;
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, version, Arrays.hashCode(dcid), Arrays.hashCode(scid), Arrays.hashCode(token), length,
                pnOffset, headerStart, packetEnd);
    }

    @Override
    public String toString() {
        return "LongHeader[" + type + ", version=0x" + Integer.toHexString(version) + ", dcid=" + Bytes.hex(dcid) + ", scid="
                + Bytes.hex(scid) + ", token=" + Bytes.shortHex(token) + ", length=" + length + ", pnOffset=" + pnOffset
                + ", headerStart=" + headerStart + ", packetEnd=" + packetEnd + "]";
    }
}
