package org.pacelab.quic.cc;

import org.pacelab.quic.packet.PacketSpace;

/**
 * What a congestion controller sees of a sent packet, as plain values: recovery's {@code SentPacket} copies
 * them in ({@code SentPacket.info()}), so controllers depend neither on the frames a packet carried nor on
 * recovery's classes. Every value is fixed when the packet is sent.
 *
 * @param space        the packet number space the packet belongs to
 * @param packetNumber the packet number in that space
 * @param timeSent     when it was sent, ns
 * @param size         bytes counted in flight
 * @param delivered    C.delivered when it was sent: bytes delivered on the connection before it
 *                     (draft-ietf-ccwg-bbr §"Delivery Rate Samples", P.delivered)
 * @param appLimited   whether the connection was application-limited when it was sent (P.is_app_limited)
 * @param txInFlight   bytes in flight just after it was sent (BBR's P.tx_in_flight)
 * @param lostBefore   bytes declared lost on the connection before it was sent (BBR's P.lost)
 */
public record PacketInfo(PacketSpace space, long packetNumber, long timeSent, int size, long delivered,
                         boolean appLimited, long txInFlight, long lostBefore) {

    /** A packet of the application space with no delivery state (for controllers that need none, and tests). */
    public static PacketInfo of(long packetNumber, long timeSent, int size) {
        return new PacketInfo(PacketSpace.APPLICATION, packetNumber, timeSent, size, 0, false, 0, 0);
    }
}
