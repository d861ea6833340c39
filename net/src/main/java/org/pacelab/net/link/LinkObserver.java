package org.pacelab.net.link;

/**
 * Sees every event of a link direction, in time order. Implemented by the event log, the counters and the tap.
 * Called synchronously by the model; implementations must not call back into it.
 */
@FunctionalInterface
public interface LinkObserver {
    /**
     * @param type          what happened
     * @param direction     the direction's index ({@link Direction#index()})
     * @param packet        the packet (for CORRUPT, the corrupted copy)
     * @param time          nanoseconds on the model's clock
     * @param cause         the drop cause for DROP, otherwise {@link DropCause#NONE}
     * @param queuePackets  packets counted against the queue limit after the event
     */
    void onEvent(EventType type, int direction, Packet packet, long time, DropCause cause, int queuePackets);

    LinkObserver NONE = (t, d, p, time, c, q) -> { };

    /** An observer that forwards to both. */
    static LinkObserver both(LinkObserver a, LinkObserver b) {
        if (a == NONE) return b;
        if (b == NONE) return a;
        return (t, d, p, time, c, q) -> { a.onEvent(t, d, p, time, c, q); b.onEvent(t, d, p, time, c, q); };
    }
}
