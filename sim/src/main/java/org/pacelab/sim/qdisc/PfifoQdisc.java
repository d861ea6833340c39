package org.pacelab.sim.qdisc;

import java.util.Map;

import org.pacelab.net.link.Packet;

/**
 * pfifo: packets go to the NIC in arrival order the moment they arrive; send times are ignored. The NIC's line
 * rate is the link's wire model, which queues without limit, so the qdisc itself never holds a packet.
 */
public final class PfifoQdisc implements Qdisc {
    private final Nic nic;

    public PfifoQdisc(Nic nic) {
        this.nic = nic;
    }

    @Override
    public void enqueue(Packet packet, long txtime, long now) {
        nic.transmit(packet, now);
    }

    @Override
    public long nextEventTime() {
        return Long.MAX_VALUE;
    }

    @Override
    public void fire(long now) {
        // never scheduled
    }

    @Override
    public Map<String, Long> drops() {
        return Map.of();
    }

    @Override
    public int backlog() {
        return 0;
    }
}
