package org.pacelab.sim.qdisc;

import org.pacelab.net.link.Packet;

/** A packet held by a time-based qdisc: its send time and arrival order (for ties). */
record TimedPacket(Packet packet, long sendTime, long seq) implements Comparable<TimedPacket> {
    @Override
    public int compareTo(TimedPacket o) {
        int c = Long.compare(sendTime, o.sendTime);
        return c != 0 ? c : Long.compare(seq, o.seq);
    }
}
