package org.pacelab.quic.cc;

import org.pacelab.quic.recovery.SentPacket;

/**
 * What a congestion controller sees of a sent packet. A view over {@link SentPacket}, so that controllers
 * do not depend on the frames a packet carried.
 *
 * @param packetNumber the packet number (application space for 1-RTT packets)
 * @param timeSent     when it was sent, ns
 * @param size         bytes counted in flight
 * @param packet       the full record, for delivery-rate fields (never null)
 */
public record PacketInfo(long packetNumber, long timeSent, int size, SentPacket packet) {
    public static PacketInfo of(SentPacket p) {
        return new PacketInfo(p.packetNumber, p.timeSent, p.size, p);
    }
}
