package org.pacelab.sim.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A discrete-event engine with a nanosecond virtual clock. A simulation has a handful of actors (two hosts,
 * their qdiscs, the link), so the next event is found by asking each actor rather than through a priority
 * queue: no allocation per event, and ties are broken by the order in which actors were added (the link
 * before the qdiscs before the hosts), which makes the order of simultaneous events fixed.
 */
public final class EventEngine {
    /** Why {@link #run} returned. */
    public enum Stop { CONDITION, IDLE, TIME_LIMIT }

    private final List<Actor> added = new ArrayList<>();
    private Actor[] actors = new Actor[0];
    private long now;
    private long events;

    /** @param start the virtual time the clock starts at, ns */
    public EventEngine(long start) {
        this.now = start;
    }

    /** Adds an actor; actors added earlier act first at equal times. */
    public void add(Actor actor) {
        added.add(actor);
        actors = added.toArray(new Actor[0]);
    }

    /** The current virtual time, ns. */
    public long now() {
        return now;
    }

    /** Events processed so far. */
    public long events() {
        return events;
    }

    /**
     * Runs events in time order until {@code done} holds (checked after each event), no actor has an event, or
     * the next event lies after {@code limit}.
     */
    public Stop run(long limit, BooleanSupplier done) {
        Actor[] a = actors;
        while (!done.getAsBoolean()) {
            long t = Long.MAX_VALUE;
            Actor next = null;
            for (Actor actor : a) {
                long at = actor.nextEventTime();
                if (at < t) {
                    t = at;
                    next = actor;
                }
            }
            if (next == null) {
                return Stop.IDLE;
            }
            if (t > limit) {
                now = limit;
                return Stop.TIME_LIMIT;
            }
            if (t < now) {
                throw new IllegalStateException(next + " scheduled an event in the past: " + t + " < " + now);
            }
            now = t;
            events++;
            next.fire(t);
        }
        return Stop.CONDITION;
    }
}
