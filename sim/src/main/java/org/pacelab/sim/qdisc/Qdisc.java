package org.pacelab.sim.qdisc;

import java.util.Map;

import org.pacelab.net.link.Packet;
import org.pacelab.sim.engine.Actor;

/**
 * A host's queueing discipline in virtual time. Packets arrive from the socket layer with an optional send time
 * (SO_TXTIME; 0 = none); the qdisc hands them to the {@link Nic} at once or, for time-based disciplines, when its
 * watchdog timer fires (its {@link #nextEventTime()}).
 */
public interface Qdisc extends Actor {
    /**
     * A packet reaches the qdisc at {@code now}.
     *
     * @param txtime the packet's send time in the qdisc's clock (virtual time), or 0 when it has none; a send time
     *               before {@code now} means "as soon as possible"
     */
    void enqueue(Packet packet, long txtime, long now);

    /** Packets dropped, by cause (e.g. {@code horizon}, {@code flow_limit}, {@code expired}), in a stable order. */
    Map<String, Long> drops();

    /** Packets held now. */
    int backlog();
}
