package org.pacelab.sim.host;

import java.nio.ByteBuffer;

import org.pacelab.net.link.Packet;
import org.pacelab.net.pcap.IpUdpHeaders;
import org.pacelab.sim.qdisc.Qdisc;

/**
 * The kernel's side of a send call: turns datagrams (or a GSO buffer's segments) into IP packets and enqueues them
 * into the qdisc, with their send time. A send time already in the past is raised to the time the packet reaches
 * the qdisc (a runtime stamps max(intended, now)); with paced GSO the segments of a buffer get send times
 * {@code size / rate} apart from the buffer's, as the QUIC Steps study's kernel patch does
 * ({@code skb_gso_segment_txtime}: segment i at txtime + i × gso_size / rate).
 */
final class KernelSendPath {
    private final Qdisc qdisc;
    private final PacketIds ids;
    private final boolean pacedGso;
    private long packets;

    KernelSendPath(Qdisc qdisc, PacketIds ids, boolean pacedGso) {
        this.qdisc = qdisc;
        this.ids = ids;
        this.pacedGso = pacedGso;
    }

    /** One datagram reaches the qdisc at {@code now}; {@code txtime} 0 = none. */
    void send(byte[] datagram, int flow, long txtime, long now) {
        qdisc.enqueue(packet(datagram, flow), txtime == 0 ? 0 : Math.max(txtime, now), now);
    }

    /** The segments of one GSO buffer reach the qdisc at {@code now}, in order. */
    void sendSegments(byte[][] segments, int count, int flow, long txtime, long rateBytesPerSecond, long now) {
        long base = txtime == 0 ? 0 : Math.max(txtime, now);
        boolean paced = pacedGso && base != 0 && rateBytesPerSecond > 0;
        long step = paced ? Math.round(segments[0].length * 1e9 / rateBytesPerSecond) : 0;
        for (int i = 0; i < count; i++) {
            qdisc.enqueue(packet(segments[i], flow), base == 0 ? 0 : base + i * step, now);
        }
    }

    private Packet packet(byte[] datagram, int flow) {
        packets++;
        return new Packet(ids.next(), flow, datagram.length + IpUdpHeaders.IPV4_UDP_BYTES, ByteBuffer.wrap(datagram));
    }

    long packets() {
        return packets;
    }
}
