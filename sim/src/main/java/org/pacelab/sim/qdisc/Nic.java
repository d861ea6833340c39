package org.pacelab.sim.qdisc;

import org.pacelab.net.link.Packet;

/** Where a qdisc hands packets: the host's network interface, which puts them on the link at {@code time}. */
@FunctionalInterface
public interface Nic {
    void transmit(Packet packet, long time);
}
