package org.pacelab.analysis.packet;

import java.nio.ByteBuffer;

import org.pacelab.analysis.capture.CapturedFrame;
import org.pacelab.analysis.capture.LinkType;

/**
 * Decodes link, IP and UDP/TCP headers of a captured frame into a reused {@link DecodedPacket}.
 * Reads bytes with absolute indexes in network byte order, so the buffer's own byte order does not matter.
 */
public final class PacketDecoder {
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88A8;
    private static final int ETHERTYPE_QINQ_OLD = 0x9100;

    private PacketDecoder() {}

    /** Decodes the frame; {@link DecodedPacket#status()} tells whether transport fields are valid. */
    public static DecodedPacket.Status decode(CapturedFrame frame, DecodedPacket out) {
        ByteBuffer b = frame.buffer();
        int start = frame.offset();
        int end = start + frame.capturedLength();
        out.buffer = b;
        out.transport = 0;
        out.status = decodeLink(b, start, end, frame.linkType(), out);
        return out.status;
    }

    private static DecodedPacket.Status decodeLink(ByteBuffer b, int o, int end, int linkType, DecodedPacket out) {
        LinkType type = LinkType.of(linkType);
        if (type == null) {
            return DecodedPacket.Status.UNSUPPORTED_LINK;
        }
        return switch (type) {
            case ETHERNET -> {
                if (o + 14 > end) {
                    yield DecodedPacket.Status.TRUNCATED;
                }
                int etherType = u16(b, o + 12);
                o += 14;
                while (etherType == ETHERTYPE_VLAN || etherType == ETHERTYPE_QINQ || etherType == ETHERTYPE_QINQ_OLD) {
                    if (o + 4 > end) {
                        yield DecodedPacket.Status.TRUNCATED;
                    }
                    etherType = u16(b, o + 2);
                    o += 4;
                }
                yield byEtherType(b, o, end, etherType, out);
            }
            case LINUX_SLL -> o + 16 > end ? DecodedPacket.Status.TRUNCATED : byEtherType(b, o + 16, end, u16(b, o + 14), out);
            case LINUX_SLL2 -> o + 20 > end ? DecodedPacket.Status.TRUNCATED : byEtherType(b, o + 20, end, u16(b, o), out);
            case RAW, RAW_DLT12, RAW_DLT14 -> byVersion(b, o, end, out);
            case IPV4 -> ipv4(b, o, end, out);
            case IPV6 -> ipv6(b, o, end, out);
            case NULL, LOOP -> {
                if (o + 4 > end) {
                    yield DecodedPacket.Status.TRUNCATED;
                }
                int family = u32(b, o);
                if ((family & 0xffff) == 0) { // the capturing host was little-endian
                    family = Integer.reverseBytes(family);
                }
                yield switch (family) {
                    case 2 -> ipv4(b, o + 4, end, out);
                    case 10, 24, 28, 30 -> ipv6(b, o + 4, end, out); // AF_INET6 on Linux, NetBSD/OpenBSD, FreeBSD, macOS
                    default -> DecodedPacket.Status.NOT_IP;
                };
            }
        };
    }

    private static DecodedPacket.Status byEtherType(ByteBuffer b, int o, int end, int etherType, DecodedPacket out) {
        return switch (etherType) {
            case ETHERTYPE_IPV4 -> ipv4(b, o, end, out);
            case ETHERTYPE_IPV6 -> ipv6(b, o, end, out);
            default -> DecodedPacket.Status.NOT_IP;
        };
    }

    private static DecodedPacket.Status byVersion(ByteBuffer b, int o, int end, DecodedPacket out) {
        if (o >= end) {
            return DecodedPacket.Status.TRUNCATED;
        }
        return switch ((b.get(o) & 0xff) >>> 4) {
            case 4 -> ipv4(b, o, end, out);
            case 6 -> ipv6(b, o, end, out);
            default -> DecodedPacket.Status.NOT_IP;
        };
    }

    /** RFC 791 §3.1. */
    private static DecodedPacket.Status ipv4(ByteBuffer b, int o, int end, DecodedPacket out) {
        if (o + 20 > end) {
            return DecodedPacket.Status.TRUNCATED;
        }
        int vihl = b.get(o) & 0xff;
        if (vihl >>> 4 != 4) {
            return DecodedPacket.Status.NOT_IP;
        }
        int ihl = (vihl & 0x0f) * 4;
        int totalLength = u16(b, o + 2);
        int fragment = u16(b, o + 6);
        int protocol = b.get(o + 9) & 0xff;
        if (ihl < 20 || o + ihl > end) {
            return DecodedPacket.Status.TRUNCATED;
        }
        out.ipVersion = 4;
        out.addressLength = 4;
        b.get(o + 12, out.src, 0, 4);
        b.get(o + 16, out.dst, 0, 4);
        if ((fragment & 0x3fff) != 0) { // MF set or non-zero fragment offset
            return DecodedPacket.Status.FRAGMENT;
        }
        // total length 0 appears with TCP segmentation offload; then the captured bytes tell the size
        int ipEnd = totalLength == 0 ? Integer.MAX_VALUE : o + totalLength;
        return transport(b, o + ihl, ipEnd, end, protocol, out);
    }

    /** RFC 8200 §3–4: walks the extension headers that precede the transport header. */
    private static DecodedPacket.Status ipv6(ByteBuffer b, int o, int end, DecodedPacket out) {
        if (o + 40 > end) {
            return DecodedPacket.Status.TRUNCATED;
        }
        if ((b.get(o) & 0xff) >>> 4 != 6) {
            return DecodedPacket.Status.NOT_IP;
        }
        int payloadLength = u16(b, o + 4);
        int next = b.get(o + 6) & 0xff;
        out.ipVersion = 6;
        out.addressLength = 16;
        b.get(o + 8, out.src, 0, 16);
        b.get(o + 24, out.dst, 0, 16);
        int ipEnd = payloadLength == 0 ? Integer.MAX_VALUE : o + 40 + payloadLength; // 0: jumbogram or offload
        int h = o + 40;
        while (true) {
            switch (next) {
                case 0, 43, 60 -> { // hop-by-hop, routing, destination options
                    if (h + 8 > end) {
                        return DecodedPacket.Status.TRUNCATED;
                    }
                    next = b.get(h) & 0xff;
                    h += 8 + (b.get(h + 1) & 0xff) * 8;
                }
                case 44 -> { // fragment
                    if (h + 8 > end) {
                        return DecodedPacket.Status.TRUNCATED;
                    }
                    int offsetAndMore = u16(b, h + 2);
                    if ((offsetAndMore & 0xfff9) != 0) {
                        return DecodedPacket.Status.FRAGMENT;
                    }
                    next = b.get(h) & 0xff;
                    h += 8;
                }
                case 51 -> { // authentication header, RFC 4302 §2.2
                    if (h + 8 > end) {
                        return DecodedPacket.Status.TRUNCATED;
                    }
                    next = b.get(h) & 0xff;
                    h += ((b.get(h + 1) & 0xff) + 2) * 4;
                }
                default -> {
                    return transport(b, h, ipEnd, end, next, out);
                }
            }
        }
    }

    private static DecodedPacket.Status transport(ByteBuffer b, int o, int ipEnd, int end, int protocol,
                                                  DecodedPacket out) {
        out.transport = protocol;
        if (protocol == DecodedPacket.UDP) {
            if (o + 8 > end) {
                return DecodedPacket.Status.TRUNCATED;
            }
            out.srcPort = u16(b, o);
            out.dstPort = u16(b, o + 2);
            int udpLength = u16(b, o + 4);
            int fromIp = ipEnd == Integer.MAX_VALUE ? end - o : ipEnd - o;
            int length = udpLength >= 8 ? udpLength : fromIp; // 0 in IPv6 jumbograms
            out.payloadOffset = o + 8;
            out.payloadLength = length - 8;
            out.capturedPayloadLength = Math.max(0, Math.min(out.payloadLength, end - out.payloadOffset));
            return DecodedPacket.Status.OK;
        }
        if (protocol == DecodedPacket.TCP) {
            if (o + 20 > end) {
                return DecodedPacket.Status.TRUNCATED;
            }
            out.srcPort = u16(b, o);
            out.dstPort = u16(b, o + 2);
            out.tcpSeq = u32(b, o + 4) & 0xffffffffL;
            out.tcpAck = u32(b, o + 8) & 0xffffffffL;
            int dataOffset = ((b.get(o + 12) & 0xff) >>> 4) * 4;
            out.tcpFlags = b.get(o + 13) & 0xff;
            if (dataOffset < 20) {
                return DecodedPacket.Status.TRUNCATED;
            }
            int segmentEnd = ipEnd == Integer.MAX_VALUE ? end : ipEnd;
            out.payloadOffset = o + dataOffset;
            out.payloadLength = Math.max(0, segmentEnd - out.payloadOffset);
            out.capturedPayloadLength = Math.max(0, Math.min(out.payloadLength, end - out.payloadOffset));
            return DecodedPacket.Status.OK;
        }
        return DecodedPacket.Status.OTHER_TRANSPORT;
    }

    /** Network byte order, whatever the buffer's own order. */
    private static int u16(ByteBuffer b, int i) {
        return (b.get(i) & 0xff) << 8 | (b.get(i + 1) & 0xff);
    }

    private static int u32(ByteBuffer b, int i) {
        return (b.get(i) & 0xff) << 24 | (b.get(i + 1) & 0xff) << 16 | (b.get(i + 2) & 0xff) << 8 | (b.get(i + 3) & 0xff);
    }
}
