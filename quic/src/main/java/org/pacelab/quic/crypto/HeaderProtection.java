package org.pacelab.quic.crypto;

import java.nio.ByteBuffer;

/**
 * Applies and removes header protection (RFC 9001 §5.4.1): the sample is the 16 bytes starting 4 bytes
 * after the start of the Packet Number field (§5.4.2); the mask hides the low 4 bits of the first byte
 * of a long header, the low 5 bits of a short header, and the packet number bytes.
 * Offsets are absolute; the buffer's position and limit are not changed.
 */
public final class HeaderProtection {
    /** Bytes from the packet number's start to the end of the sample: 4 + 16 (RFC 9001 §5.4.2). */
    public static final int SAMPLE_END_OFFSET = 20;

    private HeaderProtection() {
    }

    /**
     * Masks the first byte and the packet number of a packet whose payload is already sealed. The packet
     * number length is read from the unprotected first byte.
     *
     * @throws IllegalArgumentException when the packet is too short for the sample; senders pad so that
     *                                  the packet number plus payload are at least 4 bytes (§5.4.2)
     */
    public static void apply(ByteBuffer packet, int headerStart, int pnOffset, PacketKeys keys) {
        byte[] mask = keys.maskScratch();
        keys.headerProtectionMask(packet, pnOffset + 4, mask);
        int first = packet.get(headerStart) & 0xff;
        int pnLength = (first & 0x03) + 1;
        packet.put(headerStart, (byte) (first ^ (mask[0] & firstByteMaskBits(first))));
        for (int i = 0; i < pnLength; i++) {
            packet.put(pnOffset + i, (byte) (packet.get(pnOffset + i) ^ mask[1 + i]));
        }
    }

    /**
     * Removes header protection in place, with the sample bounded by the buffer's limit.
     *
     * @return the packet number length (1..4), or -1 when the packet is too short to hold the sample;
     *         such a packet cannot be authenticated and is dropped (RFC 9000 §12.2)
     */
    public static int remove(ByteBuffer packet, int headerStart, int pnOffset, PacketKeys keys) {
        return remove(packet, headerStart, pnOffset, packet.limit(), keys);
    }

    /**
     * Removes header protection in place from a packet ending at {@code packetEnd} (for coalesced
     * packets the sample must lie within this packet).
     *
     * @return the packet number length (1..4), or -1 when the packet is too short to hold the sample
     */
    public static int remove(ByteBuffer packet, int headerStart, int pnOffset, int packetEnd, PacketKeys keys) {
        if (headerStart < 0 || pnOffset <= headerStart || pnOffset + SAMPLE_END_OFFSET > Math.min(packetEnd, packet.limit())) {
            return -1;
        }
        byte[] mask = keys.maskScratch();
        keys.headerProtectionMask(packet, pnOffset + 4, mask);
        int protectedFirst = packet.get(headerStart) & 0xff;
        int first = protectedFirst ^ (mask[0] & firstByteMaskBits(protectedFirst));
        packet.put(headerStart, (byte) first);
        int pnLength = (first & 0x03) + 1;
        for (int i = 0; i < pnLength; i++) {
            packet.put(pnOffset + i, (byte) (packet.get(pnOffset + i) ^ mask[1 + i]));
        }
        return pnLength;
    }

    private static int firstByteMaskBits(int first) {
        return (first & 0x80) != 0 ? 0x0f : 0x1f;
    }
}
