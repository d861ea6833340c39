package org.pacelab.quic.conn;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.LongPredicate;

import org.pacelab.quic.app.ApplicationHandler;

/**
 * What the application is to be told, collected while a datagram burst or a timer is processed and delivered
 * afterwards, so the application never runs inside frame processing: callbacks in order, then the streams that became
 * readable (each once, however many frames made it so), and last the connection's end ({@link #close}): data that
 * arrived before the burst's error or the peer's CONNECTION_CLOSE is reported before {@code onClosed}, and nothing is
 * reported after it.
 */
final class ApplicationEvents {
    /** Rounds of delivery at most: a callback may queue more events (a read that frees credit, a close). */
    private static final int MAX_ROUNDS = 8;

    private final ApplicationHandler app;
    private final List<Runnable> events = new ArrayList<>();
    private final LinkedHashSet<Long> readable = new LinkedHashSet<>();
    /** The application's onClosed, once the connection ended; delivered after everything queued before it. */
    private Runnable closeEvent;
    /** Whether onClosed was delivered: nothing more is. */
    private boolean ended;

    ApplicationEvents(ApplicationHandler app) {
        this.app = app;
    }

    void add(Runnable event) {
        if (!ended) {
            events.add(event);
        }
    }

    /** The connection ended: {@code onClosed} goes after what is queued, and ends the events. */
    void close(Runnable onClosed) {
        if (!ended) {
            closeEvent = onClosed;
        }
    }

    /** Queues an event before all others (a server's onConnected ahead of its 0-RTT stream events). */
    void addFirst(Runnable event) {
        events.addFirst(event);
    }

    void readable(long streamId) {
        if (!ended) {
            readable.add(streamId);
        }
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
     * Delivers the queued events, then the readable streams {@code stillReadable} confirms, and again for what the
     * application queued meanwhile; then, once nothing else is queued, the connection's end, after which nothing is
     * delivered.
     */
    void deliver(LongPredicate stillReadable) {
        for (int round = 0; round < MAX_ROUNDS && !ended
                && (!events.isEmpty() || !readable.isEmpty() || closeEvent != null); round++) {
            List<Runnable> now = new ArrayList<>(events);
            events.clear();
            for (Runnable r : now) {
                r.run();
            }
            if (!readable.isEmpty()) {
                List<Long> ids = new ArrayList<>(readable);
                readable.clear();
                for (long id : ids) {
                    if (stillReadable.test(id)) {
                        app.onStreamReadable(id);
                    }
                }
            }
            if (closeEvent != null && (events.isEmpty() && readable.isEmpty() || round == MAX_ROUNDS - 1)) {
                Runnable closed = closeEvent;
                closeEvent = null;
                ended = true;
                events.clear();
                readable.clear();
                closed.run();
            }
        }
    }
}
