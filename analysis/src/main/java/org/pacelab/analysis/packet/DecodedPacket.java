package org.pacelab.analysis.packet;

import java.nio.ByteBuffer;

/**
 * The IP and transport headers of one frame, filled in place by {@link PacketDecoder} (reused across frames).
 * Addresses are kept as raw bytes (4 for IPv4, 16 for IPv6) so that decoding allocates nothing.
 */
public final class DecodedPacket {
    public static final int UDP = 17;
    public static final int TCP = 6;

    /** What the decoder found. */
    public enum Status { OK, NOT_IP, UNSUPPORTED_LINK, TRUNCATED, FRAGMENT, OTHER_TRANSPORT }

    Status status;
    int ipVersion;
    final byte[] src = new byte[16];
    final byte[] dst = new byte[16];
    int addressLength;
    int transport;
    int srcPort;
    int dstPort;
    /** TCP fields. */
    long tcpSeq;
    long tcpAck;
    int tcpFlags;
    ByteBuffer buffer;
    int payloadOffset;
    /** Transport payload length according to the headers. */
    int payloadLength;
    /** Bytes of that payload present in the capture (less when a snap length cut the frame). */
    int capturedPayloadLength;

    public Status status() {
        return status;
    }

    public int ipVersion() {
        return ipVersion;
    }

    public int transport() {
        return transport;
    }

    public int srcPort() {
        return srcPort;
    }

    public int dstPort() {
        return dstPort;
    }

    public int addressLength() {
        return addressLength;
    }

    /** Source address byte i (0 ≤ i &lt; addressLength). */
    public byte srcByte(int i) {
        return src[i];
    }

    public byte dstByte(int i) {
        return dst[i];
    }

    public long tcpSeq() {
        return tcpSeq;
    }

    public long tcpAck() {
        return tcpAck;
    }

    /** TCP flag bits (FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10). */
    public int tcpFlags() {
        return tcpFlags;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int payloadOffset() {
        return payloadOffset;
    }

    public int payloadLength() {
        return payloadLength;
    }

    public int capturedPayloadLength() {
        return capturedPayloadLength;
    }

    /**
     * Narrows the transport payload to {@code length} bytes at {@code offset} in the buffer, {@code captured} of them
     * present (one datagram of a UDP GSO buffer); call it again with the saved values to restore the whole payload.
     */
    public void narrowPayload(int offset, int length, int captured) {
        payloadOffset = offset;
        payloadLength = length;
        capturedPayloadLength = captured;
    }

    public Endpoint source() {
        return Endpoint.of(src, addressLength, srcPort);
    }

    public Endpoint destination() {
        return Endpoint.of(dst, addressLength, dstPort);
    }
}
