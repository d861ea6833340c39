package org.pacelab.net.spec;

/** Both directions of a link as specified: down is server to client (the bottleneck), up is client to server. */
public record LinkSpec(String preset, DirectionSpec down, DirectionSpec up) {
    /** The RTT for BDP sizes of a direction: its rtt= if given, else the sum of both directions' delays. */
    public long rttFor(DirectionSpec d) {
        return d.rttNs() > 0 ? d.rttNs() : down.delayNs() + up.delayNs();
    }
}
