package org.pacelab.net.link;

import java.util.random.RandomGenerator;

/**
 * One direction of the emulated link as a discrete-event component with no clock of its own. The driver
 * offers packets at their arrival time ({@link #offer}), asks when the next internal event is due
 * ({@link #nextEventTime}) and advances the model to a time ({@link #advanceTo}), which emits every delivery
 * due by then. Times are nanoseconds on the driver's clock and must never go backwards. A real-time driver
 * sleeps until {@code nextEventTime()}; a simulator puts it in its event queue. Several flows may share it.
 *
 * <p>Events at the same time are processed downstream first (delay line, then rate limiter, then wire), so a
 * departure frees its place in the queue before an arrival at the same instant is judged.
 */
public final class LinkDirection implements PacketChannel {
    private final Direction direction;
    private final int path;
    private final DirectionModel model;
    private final WireModel wire;
    private final BottleneckQueue queue = new BottleneckQueue();
    private final DelayLine delayLine;
    private final RandomGenerator lossRng, corruptRng, duplicateRng;
    private final LinkObserver observer;
    private long headDeparture = Long.MAX_VALUE;
    private long now = Long.MIN_VALUE;

    public LinkDirection(Direction direction, DirectionModel model, RandomStreams random, LinkObserver observer) {
        this(direction, 0, direction.label(), model, random, observer);
    }

    /**
     * A direction that is one of several parallel paths (dual connectivity).
     *
     * @param path         the path's index, passed to {@link LinkObserver#onPathEvent} (0 for a single-path link)
     * @param streamPrefix prefix of this direction's random stream names ("down" gives "down/loss", "down/jitter", ...)
     */
    public LinkDirection(Direction direction, int path, String streamPrefix, DirectionModel model, RandomStreams random,
                         LinkObserver observer) {
        this.direction = direction;
        this.path = path;
        this.model = model;
        this.wire = model.wireBitsPerSecond() > 0 ? new WireModel(model.wireBitsPerSecond(), model.wireFramingBytes()) : null;
        String d = streamPrefix;
        this.delayLine = new DelayLine(model.delayNanos(), model.jitter(), model.reorder(), random.stream(d + "/jitter"));
        this.lossRng = random.stream(d + "/loss");
        this.corruptRng = random.stream(d + "/corrupt");
        this.duplicateRng = random.stream(d + "/duplicate");
        this.observer = observer;
    }

    public Direction direction() { return direction; }

    public DirectionModel model() { return model; }

    /** The path index given to observers (0 unless this is one of several parallel paths). */
    public int path() { return path; }

    @Override
    public void offer(Packet packet, long time) {
        checkTime(time);
        emit(EventType.ARRIVAL, packet, time, DropCause.NONE);
        if (wire != null) {
            wire.add(packet, time);
        } else {
            enterBottleneck(packet, time);
        }
    }

    @Override
    public long nextEventTime() {
        long t = delayLine.nextDue();
        t = Math.min(t, headDeparture);
        if (wire != null) t = Math.min(t, wire.nextDone());
        return t;
    }

    @Override
    public void advanceTo(long time, PacketSink out) {
        checkTime(time);
        while (true) {
            long tDelay = delayLine.nextDue();
            long tLimiter = headDeparture;
            long tWire = wire == null ? Long.MAX_VALUE : wire.nextDone();
            long t = Math.min(tDelay, Math.min(tLimiter, tWire));
            if (t > time || t == Long.MAX_VALUE) break;
            if (tDelay == t) {
                Packet p = delayLine.remove();
                emit(EventType.DELIVER, p, t, DropCause.NONE);
                out.deliver(p, t);
            } else if (tLimiter == t) {
                depart(t);
            } else {
                enterBottleneck(wire.remove(), t);
            }
        }
    }

    /** Packets currently counted against the queue limit. */
    public int queuedPackets() {
        return queue.packets() + (model.sharedLimit() ? delayLine.packets() : 0);
    }

    @Override
    public int packetsInside() {
        return queue.packets() + delayLine.packets() + (wire == null ? 0 : wire.packets());
    }

    private void checkTime(long time) {
        if (time < now) throw new IllegalArgumentException("time went backwards: " + time + " < " + now);
        now = time;
    }

    private void enterBottleneck(Packet p, long t) {
        emit(EventType.TAP, p, t, DropCause.NONE);
        if (model.dropList().drops()) {
            emit(EventType.DROP, p, t, DropCause.LISTED);
            return;
        }
        if (model.blackhole().swallows(t)) {
            emit(EventType.DROP, p, t, DropCause.BLACKHOLE);
            return;
        }
        if (model.loss().lose(lossRng)) {
            emit(EventType.DROP, p, t, DropCause.LOSS);
            return;
        }
        boolean duplicate = model.duplicateProbability() > 0 && duplicateRng.nextDouble() < model.duplicateProbability();
        Packet corrupted = model.corruption().apply(p, corruptRng);
        if (corrupted != null) {
            p = corrupted;
            emit(EventType.CORRUPT, p, t, DropCause.NONE);
        }
        admit(p, t);
        if (duplicate) {
            emit(EventType.DUPLICATE, p, t, DropCause.NONE);
            admit(p, t);
        }
    }

    private void admit(Packet p, long t) {
        int charged = p.size() + model.limiterOverheadBytes();
        if (!model.rateLimiter().accepts(charged)) {
            emit(EventType.DROP, p, t, DropCause.OVERSIZE);
            return;
        }
        long heldBytes = queue.bytes() + (model.sharedLimit() ? delayLine.bytes() : 0);
        if (!model.queueLimit().admits(queuedPackets(), heldBytes, p.size())) {
            emit(EventType.DROP, p, t, DropCause.QUEUE_FULL);
            return;
        }
        boolean wasEmpty = queue.isEmpty();
        queue.add(p, t);
        emit(EventType.ENQUEUE, p, t, DropCause.NONE);
        if (wasEmpty) scheduleHead(t);
    }

    private void scheduleHead(long headSince) {
        if (queue.isEmpty()) { headDeparture = Long.MAX_VALUE; return; }
        Packet head = queue.head();
        headDeparture = model.rateLimiter().schedule(head.size() + model.limiterOverheadBytes(), queue.headArrival(), headSince);
        if (headDeparture == Long.MAX_VALUE) { // a finished trace: nothing will ever leave
            while (!queue.isEmpty()) emit(EventType.DROP, queue.removeHead(), headSince, DropCause.TRACE_ENDED);
        }
    }

    private void depart(long t) {
        Packet p = queue.removeHead();
        delayLine.add(p, t);
        emit(EventType.DEQUEUE, p, t, DropCause.NONE);
        scheduleHead(t);
    }

    private void emit(EventType type, Packet p, long t, DropCause cause) {
        observer.onPathEvent(type, direction.index(), path, p, t, cause, queuedPackets());
    }
}
