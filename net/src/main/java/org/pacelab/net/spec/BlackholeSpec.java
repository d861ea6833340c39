package org.pacelab.net.spec;

import org.pacelab.net.link.Blackhole;

/**
 * Outages as written: {@code blackhole=OPEN/CLOSED[,repeat=N]}: traffic flows for OPEN, then the direction loses
 * every packet for CLOSED, N times (default 1), counted from the direction's first packet.
 */
public record BlackholeSpec(long openNs, long closedNs, int repeat) {
    public static final BlackholeSpec NONE = new BlackholeSpec(0, 0, 0);

    public Blackhole create() {
        return closedNs == 0 || repeat == 0 ? Blackhole.NONE : new Blackhole(openNs, closedNs, repeat);
    }

    @Override
    public String toString() {
        return Units.formatDuration(openNs) + "/" + Units.formatDuration(closedNs) + (repeat != 1 ? ",repeat=" + repeat : "");
    }
}
