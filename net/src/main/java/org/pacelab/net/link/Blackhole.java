package org.pacelab.net.link;

/**
 * A link that goes dark on a schedule: traffic flows for {@code openNs}, then every packet is lost for
 * {@code closedNs}; {@code repeat} such cycles, then it stays open (the QUIC Interop Runner's {@code blackhole}
 * scenario, quic-network-simulator {@code sim/scenarios/blackhole}: {@code --on}, {@code --off}, {@code --repeat}).
 * The schedule starts with the first packet the direction carries (the runner's starts with its simulator, before
 * the endpoints; a process's start-up time would otherwise shift the outage). Keeps that origin, so each
 * direction has its own instance.
 */
public final class Blackhole {
    /** Never dark. */
    public static final Blackhole NONE = new Blackhole(0, 0, 0);

    private final long openNs;
    private final long closedNs;
    private final int repeat;
    private long origin = Long.MIN_VALUE;

    public Blackhole(long openNs, long closedNs, int repeat) {
        if (openNs < 0 || closedNs < 0 || repeat < 0) throw new IllegalArgumentException("blackhole times and repeat must not be negative");
        this.openNs = openNs;
        this.closedNs = closedNs;
        this.repeat = repeat;
    }

    public boolean active() { return closedNs > 0 && repeat > 0; }

    /** Whether a packet arriving at {@code time} is lost. */
    boolean swallows(long time) {
        if (!active()) return false;
        if (origin == Long.MIN_VALUE) origin = time;
        long since = time - origin;
        long period = openNs + closedNs;
        if (since / period >= repeat) return false;
        return since % period >= openNs;
    }

    @Override
    public String toString() {
        return "blackhole open " + openNs + " ns, closed " + closedNs + " ns, " + repeat + " times";
    }
}
