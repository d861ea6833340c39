package org.pacelab.net.dc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.pacelab.net.link.Direction;
import org.pacelab.net.link.DropCause;
import org.pacelab.net.link.EventType;
import org.pacelab.net.link.LinkDirection;
import org.pacelab.net.link.LinkObserver;
import org.pacelab.net.link.Packet;
import org.pacelab.net.link.PacketChannel;
import org.pacelab.net.link.PacketSink;
import org.pacelab.net.link.WireModel;

/**
 * The server-to-client direction of a dual-connectivity link: the server's access link (optional wire model),
 * the tap, a server-side splitter per flow that numbers packets (PDCP COUNT, {@link PdcpTransmitter}) and sends them
 * over path a, path b or both ({@link SplitPolicy}), the two paths (each a full {@link LinkDirection}: loss, queue,
 * rate or trace, delay with jitter), and a client-side reordering receiver per flow ({@link PdcpReceiver}) that
 * delivers in COUNT order (flows that use one path only pass through without being held, unless
 * {@link ReorderingConfig#singlePathInOrder()} gives them the same in-order receiver). Clock-free like
 * {@link LinkDirection}.
 *
 * <p>Observers see: ARRIVAL and TAP for the downlink as a whole ({@link LinkObserver#NO_PATH}); each path's
 * ENQUEUE, DEQUEUE, DROP, DELIVER (= reached the receiver), CORRUPT, DUPLICATE with its path index; then per packet
 * that reached the receiver exactly one of REORDER_RELEASE (handed to the client, at once or later), REORDER_HOLD
 * (followed by a REORDER_RELEASE) or REORDER_DISCARD; and REORDER_TIMEOUT when a flow's t-Reordering expires.
 *
 * <p>Packet ids must be unique among the packets inside (the copies of one packet share its id). At equal times,
 * path deliveries (path a first) come before timer expiries, which come before the wire.
 */
public final class DualConnectivityDownlink implements PacketChannel {
    private static final int DOWN = Direction.DOWN.index();

    /** A flow's splitter and reordering state. */
    private static final class Flow {
        final int id;
        final DcFlowMode mode;
        final Splitter splitter;
        final PdcpTransmitter transmitter;
        final PdcpReceiver receiver;
        long timerKey = Long.MAX_VALUE;

        Flow(int id, DcFlowMode mode, Splitter splitter, ReorderingConfig reordering) {
            this.id = id;
            this.mode = mode;
            this.splitter = splitter;
            this.transmitter = new PdcpTransmitter(reordering.snBits());
            this.receiver = new PdcpReceiver(reordering);
        }
    }

    /** A packet between splitter and receiver: its COUNT and how many copies are still on the paths. */
    private static final class InFlight {
        final Flow flow;
        final long count;
        int copies;

        InFlight(Flow flow, long count, int copies) {
            this.flow = flow;
            this.count = count;
            this.copies = copies;
        }
    }

    private final SplitPolicy split;
    private final ReorderingConfig reordering;
    private final WireModel wire;
    private final LinkDirection[] paths = new LinkDirection[2];
    private final PacketSink[] pathSinks = new PacketSink[2];
    private final LinkObserver observer;
    private final Map<Integer, DcFlowMode> assigned = new HashMap<>();
    private final Map<Integer, Flow> flows = new HashMap<>();
    private final List<Flow> flowOrder = new ArrayList<>();
    private final Map<Long, InFlight> inFlight = new HashMap<>();
    private final TreeSet<Flow> timers = new TreeSet<>(Comparator.<Flow>comparingLong(f -> f.timerKey).thenComparingInt(f -> f.id));
    private final PdcpReceiver.Output receiverOutput = new ReceiverOutput();
    private PacketSink out;
    private Flow current;
    private long now = Long.MIN_VALUE;

    private DualConnectivityDownlink(SplitPolicy split, ReorderingConfig reordering, WireModel wire, LinkObserver observer) {
        this.split = split;
        this.reordering = reordering;
        this.wire = wire;
        this.observer = observer;
    }

    /**
     * Builds the downlink.
     *
     * @param split      how dual-connected flows are split
     * @param reordering the reordering receivers' configuration
     * @param wire       the server's access link before the splitter, or null
     * @param observer   sees every event of the downlink and its paths
     * @param paths      builds each path's {@link LinkDirection} (path index = {@link DcPath#index()}, wire off),
     *                   given the observer it must report to
     */
    public static DualConnectivityDownlink create(SplitPolicy split, ReorderingConfig reordering, WireModel wire,
                                                  LinkObserver observer, PathBuilder paths) {
        DualConnectivityDownlink d = new DualConnectivityDownlink(split, reordering, wire, observer);
        for (DcPath p : DcPath.values()) {
            int i = p.index();
            d.paths[i] = paths.build(p, d.new PathObserver());
            if (d.paths[i].path() != i) throw new IllegalArgumentException("path " + p.label() + " must have path index " + i);
            d.pathSinks[i] = (packet, t) -> d.reachedReceiver(packet, i, t);
        }
        return d;
    }

    /** Builds one path's {@link LinkDirection} reporting to the given observer. */
    @FunctionalInterface
    public interface PathBuilder {
        LinkDirection build(DcPath path, LinkObserver observer);
    }

    public SplitPolicy split() { return split; }

    public ReorderingConfig reordering() { return reordering; }

    public LinkDirection path(DcPath p) { return paths[p.index()]; }

    /** Sets how a flow uses the paths; flows never assigned are {@link DcFlowMode#DUAL}. Call before its first packet. */
    public void assign(int flow, DcFlowMode mode) {
        if (flows.containsKey(flow)) throw new IllegalStateException("flow " + flow + " already has packets inside");
        assigned.put(flow, mode);
    }

    /** The mode of a flow (DUAL unless assigned). */
    public DcFlowMode mode(int flow) { return assigned.getOrDefault(flow, DcFlowMode.DUAL); }

    /** Flow ids seen so far, in order of their first packet. */
    public List<Integer> flows() { return flowOrder.stream().map(f -> f.id).toList(); }

    /** The reordering statistics of one flow, or null if it sent nothing. */
    public ReorderingStats reorderingStats(int flow) {
        Flow f = flows.get(flow);
        return f == null ? null : f.receiver.stats();
    }

    /** The reordering statistics of all flows added up. */
    public ReorderingStats reorderingStats() {
        ReorderingStats total = new ReorderingStats();
        for (Flow f : flowOrder) total.add(f.receiver.stats());
        return total;
    }

    @Override
    public void offer(Packet packet, long time) {
        checkTime(time);
        observer.onPathEvent(EventType.ARRIVAL, DOWN, LinkObserver.NO_PATH, packet, time, DropCause.NONE, 0);
        if (wire != null) {
            wire.add(packet, time);
        } else {
            splitAt(packet, time);
        }
    }

    @Override
    public long nextEventTime() {
        long t = Math.min(paths[0].nextEventTime(), paths[1].nextEventTime());
        if (!timers.isEmpty()) t = Math.min(t, timers.first().timerKey);
        if (wire != null) t = Math.min(t, wire.nextDone());
        return t;
    }

    @Override
    public void advanceTo(long time, PacketSink sink) {
        checkTime(time);
        this.out = sink;
        try {
            while (true) {
                long ta = paths[0].nextEventTime(), tb = paths[1].nextEventTime();
                long tt = timers.isEmpty() ? Long.MAX_VALUE : timers.first().timerKey;
                long tw = wire == null ? Long.MAX_VALUE : wire.nextDone();
                long t = Math.min(Math.min(ta, tb), Math.min(tt, tw));
                if (t > time || t == Long.MAX_VALUE) break;
                if (ta == t) {
                    paths[0].advanceTo(t, pathSinks[0]);
                } else if (tb == t) {
                    paths[1].advanceTo(t, pathSinks[1]);
                } else if (tt == t) {
                    Flow f = timers.pollFirst();
                    f.timerKey = Long.MAX_VALUE;
                    current = f;
                    f.receiver.expire(t, receiverOutput);
                    rescheduleTimer(f);
                } else {
                    splitAt(wire.remove(), t);
                }
            }
        } finally {
            this.out = null;
        }
    }

    @Override
    public int packetsInside() {
        int n = paths[0].packetsInside() + paths[1].packetsInside() + (wire == null ? 0 : wire.packets());
        for (Flow f : flowOrder) n += f.receiver.heldPackets();
        return n;
    }

    private void checkTime(long time) {
        if (time < now) throw new IllegalArgumentException("time went backwards: " + time + " < " + now);
        now = time;
    }

    private Flow flowOf(int id) {
        Flow f = flows.get(id);
        if (f == null) {
            DcFlowMode mode = mode(id);
            Splitter s = switch (mode) {
                case DUAL -> split.newSplitter();
                case PATH_A -> () -> PathChoice.A;
                case PATH_B -> () -> PathChoice.B;
            };
            f = new Flow(id, mode, s, usesBothPaths(mode) || reordering.singlePathInOrder() ? reordering
                    : new ReorderingConfig(reordering.snBits(), reordering.tReorderingNanos(), true));
            flows.put(id, f);
            flowOrder.add(f);
        }
        return f;
    }

    /**
     * Whether a flow's packets can take both paths. By default only such flows are held for reordering; a flow on one
     * path gets its packets as the path delivers them (outOfOrderDelivery: a path's loss reaches the transport at
     * once, as on a plain link, instead of stalling it for t-Reordering). With {@link ReorderingConfig#singlePathInOrder()}
     * every flow has the in-order receiver, so a loss on a single-path flow's path holds its later packets too.
     */
    private boolean usesBothPaths(DcFlowMode mode) {
        if (mode != DcFlowMode.DUAL) return false;
        return switch (split) {
            case SplitPolicy.Batches b -> b.ratio().a() > 0 && b.ratio().b() > 0;
            case SplitPolicy.Duplicate d -> true;
            case SplitPolicy.Single s -> false;
        };
    }

    private void splitAt(Packet p, long t) {
        observer.onPathEvent(EventType.TAP, DOWN, LinkObserver.NO_PATH, p, t, DropCause.NONE, 0);
        Flow f = flowOf(p.flow());
        PathChoice choice = f.splitter.next();
        long count = f.transmitter.nextCount();
        if (inFlight.putIfAbsent(p.id(), new InFlight(f, count, choice.copies())) != null) {
            throw new IllegalArgumentException("packet id " + p.id() + " is already inside the dual-connectivity downlink; "
                    + "ids must be unique");
        }
        if (choice.uses(DcPath.A)) paths[0].offer(p, t);
        if (choice.uses(DcPath.B)) paths[1].offer(p, t);
    }

    private void reachedReceiver(Packet p, int path, long t) {
        InFlight f = inFlight.get(p.id());
        if (f == null) throw new IllegalStateException("packet " + p.id() + " left a path without having entered one");
        if (--f.copies == 0) inFlight.remove(p.id());
        Flow flow = f.flow;
        timers.remove(flow);
        current = flow;
        flow.receiver.receive(flow.transmitter.sn(f.count), p, path, t, receiverOutput);
        rescheduleTimer(flow);
    }

    private void rescheduleTimer(Flow f) {
        timers.remove(f);
        f.timerKey = f.receiver.timerExpiry();
        if (f.timerKey != Long.MAX_VALUE) timers.add(f);
    }

    /** Forwards a path's events and keeps the in-flight copy counts exact (drops and duplicates). */
    private final class PathObserver implements LinkObserver {
        @Override
        public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int q) {
            onPathEvent(type, direction, 0, p, time, cause, q);
        }

        @Override
        public void onPathEvent(EventType type, int direction, int path, Packet p, long time, DropCause cause, int q) {
            switch (type) {
                case ARRIVAL, TAP -> { return; } // the downlink reports these once, for the whole
                case DROP -> {
                    InFlight f = inFlight.get(p.id());
                    if (f != null && --f.copies == 0) inFlight.remove(p.id());
                }
                case DUPLICATE -> {
                    InFlight f = inFlight.get(p.id());
                    if (f != null) f.copies++;
                }
                default -> { }
            }
            observer.onPathEvent(type, direction, path, p, time, cause, q);
        }
    }

    /** Turns the receiver's results into events and deliveries. */
    private final class ReceiverOutput implements PdcpReceiver.Output {
        @Override
        public void deliver(Packet packet, int path, long arrivedAt, long time) {
            observer.onPathEvent(EventType.REORDER_RELEASE, DOWN, path, packet, time, DropCause.NONE,
                    current.receiver.heldPackets());
            out.deliver(packet, time);
        }

        @Override
        public void hold(Packet packet, int path, long time, int heldNow) {
            observer.onPathEvent(EventType.REORDER_HOLD, DOWN, path, packet, time, DropCause.NONE, heldNow);
        }

        @Override
        public void discard(Packet packet, int path, long time, DropCause cause) {
            observer.onPathEvent(EventType.REORDER_DISCARD, DOWN, path, packet, time, cause, current.receiver.heldPackets());
        }

        @Override
        public void timerExpired(long time, long rxReord, int heldNow) {
            Packet marker = new Packet(rxReord, current.id, 1, null);
            observer.onPathEvent(EventType.REORDER_TIMEOUT, DOWN, LinkObserver.NO_PATH, marker, time, DropCause.NONE, heldNow);
        }
    }
}
