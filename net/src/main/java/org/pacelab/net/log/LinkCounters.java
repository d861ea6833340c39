package org.pacelab.net.log;

import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;

/** Running counts of a link's events, readable at any time from the driving thread. */
public final class LinkCounters implements LinkObserver {
    private final long[][] events = new long[2][EventType.values().length + 1];
    private final long[][] drops = new long[2][DropCause.values().length];
    private final long[] deliveredBytes = new long[2];
    private final long[] maxQueue = new long[2];

    @Override
    public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int queuePackets) {
        events[direction][type.code()]++;
        if (type == EventType.DROP) drops[direction][cause.code()]++;
        if (type == EventType.DELIVER) deliveredBytes[direction] += p.size();
        if (!type.reordering() && queuePackets > maxQueue[direction]) maxQueue[direction] = queuePackets;
    }

    public long count(Direction d, EventType t) { return events[d.index()][t.code()]; }

    public long drops(Direction d, DropCause c) { return drops[d.index()][c.code()]; }

    public long totalDrops(Direction d) {
        long s = 0;
        for (long v : drops[d.index()]) s += v;
        return s;
    }

    public long deliveredBytes(Direction d) { return deliveredBytes[d.index()]; }

    public long maxQueue(Direction d) { return maxQueue[d.index()]; }

    /** One line per direction, e.g. for the emulator's exit report. */
    public String format() {
        StringBuilder b = new StringBuilder();
        for (Direction d : Direction.values()) {
            String outages = drops(d, DropCause.BLACKHOLE) + drops(d, DropCause.LISTED) == 0 ? ""
                    : String.format(", blackhole %d, listed %d", drops(d, DropCause.BLACKHOLE), drops(d, DropCause.LISTED));
            b.append(String.format("%-4s arrived %d, delivered %d (%d bytes), dropped %d (queue full %d, loss %d, oversize %d, "
                            + "trace ended %d%s), corrupted %d, duplicated %d, max queue %d packets%n",
                    d.label(), count(d, EventType.ARRIVAL), count(d, EventType.DELIVER), deliveredBytes(d), totalDrops(d),
                    drops(d, DropCause.QUEUE_FULL), drops(d, DropCause.LOSS), drops(d, DropCause.OVERSIZE),
                    drops(d, DropCause.TRACE_ENDED), outages, count(d, EventType.CORRUPT), count(d, EventType.DUPLICATE),
                    maxQueue(d)));
        }
        return b.toString();
    }
}
