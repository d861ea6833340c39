package org.pacelab.net.link;

/** What happened to a packet in a link direction. The codes are the event log's on-disk values. */
public enum EventType {
    /** The driver offered the packet to the direction (the server or client emitted it). */
    ARRIVAL(1),
    /** The packet left the wire model: the tap point, where the study's sniffer sat. */
    TAP(2),
    /** The packet was admitted to the bottleneck queue. */
    ENQUEUE(3),
    /** The packet left the rate limiter (and the queue limit's count, unless the limit is shared). */
    DEQUEUE(4),
    /** The packet was dropped; the cause says where. */
    DROP(5),
    /** The packet left the delay line: delivered to the other end. */
    DELIVER(6),
    /** The packet's payload was corrupted (one bit flipped). */
    CORRUPT(7),
    /** A duplicate of the packet was created (it follows the original through the rest of the link). */
    DUPLICATE(8),
    /**
     * Dual connectivity: the reordering receiver stored the packet out of order (a gap before it); it is released
     * later by {@link #REORDER_RELEASE}. The queue field counts the packets it holds.
     */
    REORDER_HOLD(9),
    /** Dual connectivity: the reordering receiver handed the packet to the client (in order, or after a timeout). */
    REORDER_RELEASE(10),
    /** Dual connectivity: the reordering receiver discarded the packet; the cause says why. */
    REORDER_DISCARD(11),
    /**
     * Dual connectivity: the reordering timer (t-Reordering) of a flow expired and the receiver gave up waiting for
     * the missing packets. The packet id field holds RX_REORD (the COUNT that started the timer); the size field is 1
     * and carries no meaning.
     */
    REORDER_TIMEOUT(12);

    private final int code;

    EventType(int code) { this.code = code; }

    public int code() { return code; }

    /** Whether this is an event of a dual-connectivity reordering receiver (its queue field counts held packets). */
    public boolean reordering() { return code >= REORDER_HOLD_CODE && code <= REORDER_TIMEOUT_CODE; }

    private static final int REORDER_HOLD_CODE = 9, REORDER_TIMEOUT_CODE = 12;

    private static final EventType[] BY_CODE = new EventType[13];
    static { for (EventType t : values()) BY_CODE[t.code] = t; }

    /** The type with this on-disk code, or {@code null}. */
    public static EventType ofCode(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
