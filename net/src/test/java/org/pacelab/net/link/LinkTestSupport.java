package org.pacelab.net.link;

import java.util.ArrayList;
import java.util.List;

/** Helpers to drive a direction with a fake clock in tests. */
final class LinkTestSupport {
    private LinkTestSupport() {}

    record Delivered(Packet packet, long time) { }

    record Recorded(EventType type, long id, long time, DropCause cause) { }

    /** Records every event. */
    static final class Recorder implements LinkObserver {
        final List<Recorded> events = new ArrayList<>();
        @Override public void onEvent(EventType type, int direction, Packet p, long time, DropCause cause, int q) {
            events.add(new Recorded(type, p.id(), time, cause));
        }
        List<Long> ids(EventType t) { return events.stream().filter(e -> e.type() == t).map(Recorded::id).toList(); }
        List<Long> times(EventType t) { return events.stream().filter(e -> e.type() == t).map(Recorded::time).toList(); }
    }

    /** Offers packets at the given times, advancing the model in between, then drains it. */
    static List<Delivered> run(LinkDirection d, long[] times, int[] sizes) {
        List<Delivered> out = new ArrayList<>();
        for (int i = 0; i < times.length; i++) {
            d.advanceTo(times[i], (p, t) -> out.add(new Delivered(p, t)));
            d.offer(new Packet(i, 1, sizes[i], null), times[i]);
        }
        d.advanceTo(Long.MAX_VALUE - 1, (p, t) -> out.add(new Delivered(p, t)));
        return out;
    }

    static DirectionModel model(RateLimiter limiter, QueueLimit limit, boolean shared, long delay, int overhead) {
        return new DirectionModel(0, 38, new LossModel.None(), 0, 0, limiter, overhead, limit, shared, delay,
                new Jitter.None(), false);
    }
}
