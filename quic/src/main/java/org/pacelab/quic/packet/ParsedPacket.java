package org.pacelab.quic.packet;

import java.util.Arrays;
import java.util.Objects;
import org.pacelab.quic.wire.Bytes;

/**
 * One packet located in a datagram by {@link PacketParser} (header protection still applied).
 *
 * <ul>
 *   <li>{@code type}: the packet type; null for a version whose header layout is not known (neither v1 nor v2).</li>
 *   <li>{@code version}: the long-header version; 0 for Version Negotiation; 0 for short headers,
 *       which carry none.</li>
 *   <li>{@code supportedVersion}: false for a long header of a version this stack does not speak
 *       ({@link QuicVersion#isSupported}); for an unknown version only the invariant fields (version, dcid,
 *       scid) are known (RFC 8999 §5.1), for a known one (QUIC v2) the whole header is parsed; a server
 *       answers either with Version Negotiation (RFC 9000 §6.1).</li>
 *   <li>{@code token}: the Initial token or the Retry token; empty otherwise.</li>
 *   <li>{@code length}: the Length field of Initial, 0-RTT and Handshake packets; for the others the
 *       bytes from {@code pnOffset} (or the end of the header) to {@code packetEnd}.</li>
 *   <li>{@code pnOffset}: start of the (protected) Packet Number field; -1 for Retry, Version
 *       Negotiation and unsupported versions.</li>
 *   <li>{@code packetEnd}: offset just past this packet; the next coalesced packet starts there
 *       (RFC 9000 §12.2). Short-header, Retry, Version Negotiation and unsupported-version packets
 *       extend to the end of the datagram.</li>
 *   <li>{@code versions}: the Supported Versions of a Version Negotiation packet, else empty.</li>
 *   <li>{@code retryIntegrityTag}: the 16-byte tag of a Retry packet, else empty.</li>
 * </ul>
 * Arrays are copies owned by this record (empty arrays may be shared).
 */
public record ParsedPacket(PacketType type, int version, boolean supportedVersion, byte[] dcid, byte[] scid, byte[] token,
                           int length, int headerStart, int pnOffset, int packetEnd, int[] versions,
                           byte[] retryIntegrityTag) {
    static final byte[] EMPTY = new byte[0];
    static final int[] NO_VERSIONS = new int[0];

    /** Whether the packet uses the long header form. */
    public boolean isLongHeader() {
        return type != PacketType.ONE_RTT;
    }

    /** The header of an Initial, 0-RTT or Handshake packet. */
    public LongHeader longHeader() {
        if (type == null || !type.hasPacketNumber() || type == PacketType.ONE_RTT) {
            throw new IllegalStateException("a " + (type != null ? type : "unknown-version") + " packet has no long header with a packet number");
        }
        return new LongHeader(type, version, dcid, scid, token, length, pnOffset, headerStart, packetEnd);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ParsedPacket p && p.type == type && p.version == version && p.supportedVersion == supportedVersion
                && Arrays.equals(p.dcid, dcid) && Arrays.equals(p.scid, scid) && Arrays.equals(p.token, token)
                && p.length == length && p.headerStart == headerStart && p.pnOffset == pnOffset && p.packetEnd == packetEnd
                && Arrays.equals(p.versions, versions) && Arrays.equals(p.retryIntegrityTag, retryIntegrityTag);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, version, supportedVersion, Arrays.hashCode(dcid), Arrays.hashCode(scid), Arrays.hashCode(token),
                length, headerStart, pnOffset, packetEnd, Arrays.hashCode(versions), Arrays.hashCode(retryIntegrityTag));
    }

    @Override
    public String toString() {
        return "ParsedPacket[" + (supportedVersion ? type : "unsupported") + ", version=0x" + Integer.toHexString(version)
                + ", dcid=" + Bytes.hex(dcid) + ", scid=" + Bytes.hex(scid) + ", token=" + Bytes.shortHex(token)
                + ", length=" + length + ", headerStart=" + headerStart + ", pnOffset=" + pnOffset + ", packetEnd=" + packetEnd
                + (versions.length > 0 ? ", versions=" + Arrays.toString(versions) : "")
                + (retryIntegrityTag.length > 0 ? ", tag=" + Bytes.hex(retryIntegrityTag) : "") + "]";
    }
}
