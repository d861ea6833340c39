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

    /**
     * The same event with the index of the path it happened on: 0 for a single-path link; 0 (a) or 1 (b) for the
     * paths of a dual-connectivity downlink, {@link #NO_PATH} for events of the downlink as a whole (arrival, tap,
     * reordering timeouts). Models call this method; observers that do not care about paths implement only
     * {@link #onEvent}.
     */
    default void onPathEvent(EventType type, int direction, int path, Packet packet, long time, DropCause cause,
                             int queuePackets) {
        onEvent(type, direction, packet, time, cause, queuePackets);
    }

    /** The path index of events that belong to no single path. */
    int NO_PATH = 255;

    LinkObserver NONE = (t, d, p, time, c, q) -> { };

    /** An observer that forwards to both. */
    static LinkObserver both(LinkObserver a, LinkObserver b) {
        if (a == NONE) return b;
        if (b == NONE) return a;
        return new LinkObserver() {
            @Override
            public void onEvent(EventType t, int d, Packet p, long time, DropCause c, int q) {
                a.onEvent(t, d, p, time, c, q);
                b.onEvent(t, d, p, time, c, q);
            }

            @Override
            public void onPathEvent(EventType t, int d, int path, Packet p, long time, DropCause c, int q) {
                a.onPathEvent(t, d, path, p, time, c, q);
                b.onPathEvent(t, d, path, p, time, c, q);
            }
        };
    }
}
