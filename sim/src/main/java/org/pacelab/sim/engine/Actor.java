package org.pacelab.sim.engine;

/**
 * A component of a simulation that acts at points of virtual time: a host, a qdisc, the link. The engine asks
 * every actor for its next event time after each event, so an actor's schedule may change because of another
 * actor's event (a datagram arriving wakes a host) without any registration.
 */
public interface Actor {
    /** The virtual time (ns) of this actor's next event, or {@link Long#MAX_VALUE} when it has none. */
    long nextEventTime();

    /** Performs the event due at {@code now} (which equals the last {@link #nextEventTime()}). */
    void fire(long now);
}
