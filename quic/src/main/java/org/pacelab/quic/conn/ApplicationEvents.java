package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

import org.pacelab.quic.app.ApplicationHandler;

/**
 * What the application is to be told, collected while a datagram burst or a timer is processed and delivered
 * afterwards, so the application never runs inside frame processing: callbacks in order, then the streams that became
 * readable (each once, however many frames made it so).
 */
final class ApplicationEvents {
    /** Rounds of delivery at most: a callback may queue more events (a read that frees credit, a close). */
    private static final int MAX_ROUNDS = 8;

    private final ApplicationHandler app;
    private final List<Runnable> events = new ArrayList<>();
    private final LinkedHashSet<Long> readable = new LinkedHashSet<>();

    ApplicationEvents(ApplicationHandler app) {
        this.app = app;
    }

    void add(Runnable event) {
        events.add(event);
    }

    /** Queues an event before all others (a server's onConnected ahead of its 0-RTT stream events). */
    void addFirst(Runnable event) {
        events.addFirst(event);
    }

    void readable(long streamId) {
        readable.add(streamId);
    }

    /** Forgets a stream that is gone. */
    void forget(long streamId) {
        readable.remove(streamId);
    }

    /** Drops everything queued (a connection the application never saw closed). */
    void clear() {
        events.clear();
        readable.clear();
    }

    /**
     * Delivers the queued events, then the readable streams {@code stillReadable} confirms unless {@code closed}, and
     * again for what the application queued meanwhile.
     */
    void deliver(LongPredicate stillReadable, BooleanSupplier closed) {
        for (int round = 0; round < MAX_ROUNDS && (!events.isEmpty() || !readable.isEmpty()); round++) {
            List<Runnable> now = new ArrayList<>(events);
            events.clear();
            for (Runnable r : now) {
                r.run();
            }
            if (!readable.isEmpty() && !closed.getAsBoolean()) {
                List<Long> ids = new ArrayList<>(readable);
                readable.clear();
                for (long id : ids) {
                    if (stillReadable.test(id)) {
                        app.onStreamReadable(id);
                    }
                }
            }
        }
    }
}
