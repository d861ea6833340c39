package org.pacelab.net.link;

/** Both directions of an emulated link between a server and a client. */
public record Link(LinkDirection down, LinkDirection up) {
    public LinkDirection direction(Direction d) { return d == Direction.DOWN ? down : up; }

    /** The earliest internal event of either direction. */
    public long nextEventTime() { return Math.min(down.nextEventTime(), up.nextEventTime()); }
}
