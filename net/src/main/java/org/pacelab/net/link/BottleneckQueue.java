package org.pacelab.net.link;

import java.util.ArrayDeque;

/**
 * The FIFO in front of the rate limiter. It holds a packet from admission until the rate limiter releases it
 * (including the packet being transmitted, so a limit of N counts like a qdisc of N-1 plus the packet on the
 * wire of a serializing link). Tracks held packets and bytes; the limit is checked by the caller, which may
 * add the delay line's packets when the limit is shared.
 */
final class BottleneckQueue {
    private record Entry(Packet packet, long arrival) { }

    private final ArrayDeque<Entry> fifo = new ArrayDeque<>();
    private long bytes;

    void add(Packet p, long arrival) {
        fifo.addLast(new Entry(p, arrival));
        bytes += p.size();
    }

    Packet head() { Entry e = fifo.peekFirst(); return e == null ? null : e.packet; }

    long headArrival() { return fifo.getFirst().arrival; }

    Packet removeHead() {
        Entry e = fifo.removeFirst();
        bytes -= e.packet.size();
        return e.packet;
    }

    int packets() { return fifo.size(); }

    long bytes() { return bytes; }

    boolean isEmpty() { return fifo.isEmpty(); }
}
