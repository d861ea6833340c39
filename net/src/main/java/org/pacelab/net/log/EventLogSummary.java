package org.pacelab.net.log;

import java.util.Map;
import java.util.TreeMap;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;

/** Event counts of a log per direction, type and drop cause. */
public final class EventLogSummary {
    private final long[][] byType = new long[2][EventType.values().length + 1];
    private final long[][] dropsByCause = new long[2][DropCause.values().length];
    private final long[] maxQueue = new long[2];
    final Map<Integer, String> flows = new TreeMap<>();
    int truncatedBytes;

    void add(LogEvent e) {
        int d = e.direction().index();
        byType[d][e.type().code()]++;
        if (e.type() == EventType.DROP) dropsByCause[d][e.cause().code()]++;
        if (!e.type().reordering()) maxQueue[d] = Math.max(maxQueue[d], e.queuePackets());
    }

    public long count(Direction d, EventType t) { return byType[d.index()][t.code()]; }

    public long drops(Direction d, DropCause c) { return dropsByCause[d.index()][c.code()]; }

    public long maxQueue(Direction d) { return maxQueue[d.index()]; }

    public Map<Integer, String> flows() { return flows; }

    public int truncatedBytes() { return truncatedBytes; }
}
