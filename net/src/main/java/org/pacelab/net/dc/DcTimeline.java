package org.pacelab.net.dc;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;
import org.pacelab.net.log.LogEvent;

/**
 * Bytes over time of a downlink, in fixed bins, built from the model's events either live (it is a
 * {@link LinkObserver}) or from an event log ({@link #add(LogEvent)}):
 * <ul>
 * <li>per flow, the bytes the client received (REORDER_RELEASE on a dual-connectivity downlink; DELIVER on a
 *   single-path one, recognised by the absence of reordering events);</li>
 * <li>per path and per flow on each path, the bytes that left the path's rate limiter (DEQUEUE): the path's
 *   throughput, whose ratio to the path's capacity is its utilization;</li>
 * <li>per flow, the reordering receiver's behaviour: packets held, timer expiries, how long held packets waited,
 *   duplicates and outdated packets discarded.</li>
 * </ul>
 * Bin i covers model time [i·bin, (i+1)·bin). IP bytes are counted (what the link charges for).
 */
public final class DcTimeline implements LinkObserver {
    /** A growable row of byte counts per bin. */
    public static final class Bins {
        private long[] v = new long[64];
        private int n;

        void add(int bin, long bytes) {
            if (bin >= v.length) v = Arrays.copyOf(v, Math.max(bin + 1, v.length * 2));
            v[bin] += bytes;
            n = Math.max(n, bin + 1);
        }

        /** The counts up to the last non-empty bin. */
        public long[] values() { return Arrays.copyOf(v, n); }

        public long total() {
            long s = 0;
            for (int i = 0; i < n; i++) s += v[i];
            return s;
        }
    }

    private final long binNanos;
    private final Map<Integer, Bins> released = new TreeMap<>();
    private final Map<Integer, Bins> deliveredSinglePath = new TreeMap<>();
    private final Bins[] paths = {new Bins(), new Bins()};
    private final Map<Integer, Bins[]> flowPaths = new TreeMap<>();
    private final long[] pathDrops = new long[2];
    private final Map<Integer, ReorderingStats> reordering = new TreeMap<>();
    private final Map<Long, Long> heldSince = new HashMap<>();
    private final Map<Integer, Long> lastTimeout = new HashMap<>();
    private boolean reorderingSeen;
    private int lastBin = -1;

    public DcTimeline(long binNanos) {
        if (binNanos <= 0) throw new IllegalArgumentException("bin width must be positive");
        this.binNanos = binNanos;
    }

    public long binNanos() { return binNanos; }

    /** Number of bins up to the last event. */
    public int bins() { return lastBin + 1; }

    @Override
    public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int queuePackets) {
        onPathEvent(type, direction, 0, p, time, cause, queuePackets);
    }

    @Override
    public void onPathEvent(EventType type, int direction, int path, Packet p, long time, DropCause cause, int q) {
        record(type, direction, path, p.id(), p.flow(), p.size(), time, cause, q);
    }

    /** Adds one record of an event log. */
    public void add(LogEvent e) {
        record(e.type(), e.direction().index(), e.path(), e.packetId(), e.flow(), e.size(), e.time(), e.cause(),
                e.queuePackets());
    }

    private void record(EventType type, int direction, int path, long id, int flow, int size, long time, DropCause cause,
                        int q) {
        if (direction != Direction.DOWN.index() || time < 0) return;
        int bin = (int) Math.min(Integer.MAX_VALUE - 1, time / binNanos);
        lastBin = Math.max(lastBin, bin);
        boolean onPath = path == 0 || path == 1;
        switch (type) {
            case DEQUEUE -> {
                if (!onPath) return;
                paths[path].add(bin, size);
                flowPaths.computeIfAbsent(flow, f -> new Bins[] {new Bins(), new Bins()})[path].add(bin, size);
            }
            case DROP -> { if (onPath) pathDrops[path]++; }
            case DELIVER -> {
                deliveredSinglePath.computeIfAbsent(flow, f -> new Bins()).add(bin, size);
                stats(flow).received++;
            }
            case REORDER_RELEASE -> {
                reorderingSeen = true;
                released.computeIfAbsent(flow, f -> new Bins()).add(bin, size);
                ReorderingStats s = stats(flow);
                Long since = heldSince.remove(id);
                if (since == null) {
                    s.deliveredAtOnce++;
                } else {
                    s.holdNanos.recordValue(Math.max(0, time - since));
                    if (lastTimeout.getOrDefault(flow, Long.MIN_VALUE) == time) s.releasedByTimer++;
                    else s.releasedByArrival++;
                }
            }
            case REORDER_HOLD -> {
                reorderingSeen = true;
                heldSince.put(id, time);
                ReorderingStats s = stats(flow);
                s.held++;
                s.maxHeld = Math.max(s.maxHeld, q);
            }
            case REORDER_DISCARD -> {
                reorderingSeen = true;
                ReorderingStats s = stats(flow);
                if (cause == DropCause.DUPLICATE) s.duplicates++; else s.outdated++;
            }
            case REORDER_TIMEOUT -> {
                reorderingSeen = true;
                stats(flow).timerExpiries++;
                lastTimeout.put(flow, time);
            }
            default -> { }
        }
    }

    private ReorderingStats stats(int flow) {
        return reordering.computeIfAbsent(flow, f -> new ReorderingStats());
    }

    /** Whether the events came from a dual-connectivity downlink (reordering events were seen). */
    public boolean dualConnectivity() { return reorderingSeen; }

    /** Flows that received something, ascending. */
    public java.util.Set<Integer> flows() { return client().keySet(); }

    /** Bytes the client of {@code flow} received per bin (empty if none). */
    public long[] clientBytes(int flow) {
        Bins b = client().get(flow);
        return b == null ? new long[0] : b.values();
    }

    private Map<Integer, Bins> client() { return reorderingSeen ? released : deliveredSinglePath; }

    /** Bytes that left path {@code path}'s rate limiter per bin. */
    public long[] pathBytes(DcPath path) { return paths[path.index()].values(); }

    /** Bytes of {@code flow} that left path {@code path}'s rate limiter per bin. */
    public long[] pathBytes(DcPath path, int flow) {
        Bins[] b = flowPaths.get(flow);
        return b == null ? new long[0] : b[path.index()].values();
    }

    /** Packets dropped on a path (loss, queue full, trace ended). */
    public long pathDrops(DcPath path) { return pathDrops[path.index()]; }

    /**
     * The reordering receiver's counts for a flow as far as the events tell (COUNTs skipped are not in the events and
     * stay 0); null if the flow had no reordering events.
     */
    public ReorderingStats reordering(int flow) { return reorderingSeen ? reordering.get(flow) : null; }
}
