package org.pacelab.net.link;

/**
 * Both directions of an emulated link between a server and a client. Each is a {@link LinkDirection}, or for a
 * dual-connectivity downlink the splitter, two paths and the reordering receiver behind one {@link PacketChannel}.
 */
public record Link(PacketChannel down, PacketChannel up) {
    public PacketChannel direction(Direction d) { return d == Direction.DOWN ? down : up; }

    /** The earliest internal event of either direction. */
    public long nextEventTime() { return Math.min(down.nextEventTime(), up.nextEventTime()); }
}
