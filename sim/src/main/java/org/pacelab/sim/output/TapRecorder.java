package org.pacelab.sim.output;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;
import org.pacelab.net.pcap.IpUdpHeaders;
import org.pacelab.net.pcap.PcapngWriter;

/**
 * The tap at the study's sniffer position, as the relay records it: server-to-client packets when they leave the
 * access link's wire model (event TAP; on a dual-connectivity link before the splitter), client-to-server packets
 * when they reach the server (DELIVER), each with synthesized IPv4/UDP headers — the client's address is that of the
 * packet's flow (flow i + 1 = client i) — and the virtual time mapped onto the {@link VirtualEpoch}.
 */
public final class TapRecorder implements LinkObserver {
    private final PcapngWriter tap;
    private final InetSocketAddress server;
    private final List<InetSocketAddress> clients;

    /** @param clients the clients' addresses, client i's at index i */
    public TapRecorder(PcapngWriter tap, InetSocketAddress server, List<InetSocketAddress> clients) {
        this.tap = tap;
        this.server = server;
        this.clients = List.copyOf(clients);
    }

    @Override
    public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int queuePackets) {
        boolean down = direction == Direction.DOWN.index();
        if (!((down && type == EventType.TAP) || (!down && type == EventType.DELIVER))) {
            return;
        }
        InetSocketAddress client = clients.get(p.flow() - 1);
        ByteBuffer payload = p.payload().duplicate();
        InetSocketAddress src = down ? server : client;
        InetSocketAddress dst = down ? client : server;
        tap.write(VirtualEpoch.toEpochNanos(time), IpUdpHeaders.build(src, dst, payload), payload);
    }
}
