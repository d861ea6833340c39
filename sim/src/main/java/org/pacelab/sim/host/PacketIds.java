package org.pacelab.sim.host;

/** Identifiers of the packets of one simulation (the event log's packet ids), in the order they are created. */
public final class PacketIds {
    private long next;

    public long next() {
        return next++;
    }
}
