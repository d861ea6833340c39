package org.pacelab.net.link;

/** Why a packet was dropped. The codes are the event log's on-disk values. */
public enum DropCause {
    NONE(0),
    /** Random loss (Bernoulli or Gilbert-Elliott). */
    LOSS(1),
    /** Drop-tail: the queue limit was reached. */
    QUEUE_FULL(2),
    /** Larger than the token bucket can ever hold (Linux tbf drops such packets too). */
    OVERSIZE(3),
    /** A trace that does not repeat has ended: no delivery opportunity is left. */
    TRACE_ENDED(4),
    /** Dual connectivity: the reordering receiver had already received this COUNT (e.g. the other path's copy). */
    DUPLICATE(5),
    /** Dual connectivity: the COUNT was below RX_DELIV and never received: the reordering timer had given up on it. */
    OUTDATED(6),
    /** The link was dark at the time (a blackhole outage). */
    BLACKHOLE(7),
    /** The packet's position was on the direction's drop list. */
    LISTED(8);

    private final int code;

    DropCause(int code) { this.code = code; }

    public int code() { return code; }

    public static DropCause ofCode(int code) {
        for (DropCause c : values()) if (c.code == code) return c;
        return null;
    }
}
