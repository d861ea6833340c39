package org.pacelab.peers.kwik;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import tech.kwik.core.QuicConnection;
import tech.kwik.core.QuicStream;
import tech.kwik.core.frame.PingFrame;
import tech.kwik.core.impl.QuicConnectionImpl;
import tech.kwik.core.stream.FlowControlUpdateListener;

/**
 * Works around a race in Kwik 0.10.9 that stalls a server's response for good. Its stream output
 * ({@code StreamOutputStreamImpl.scheduleSendStreamFrameRequest}) reads how many send requests are queued, queues
 * one when none is, and only then counts it; when Kwik's sender thread runs the request in between, it sees -1 and
 * queues no follow-up, so once the writer blocks on the full 50 KiB send buffer nobody sends again. Seen on this
 * 2-core machine in about one Kwik → pacelab transfer of three: two packets of the body, then only PTO probes
 * until the idle timeout (thread dump: the writer parked in {@code SendBuffer.write}).
 *
 * <p>The watchdog asks every stream still being answered, four times a second, to queue a send request the same
 * way a flow-control update does ({@link FlowControlUpdateListener#streamNotBlocked}); with nothing to send such a
 * request sends nothing, so it has no effect on the wire unless the stream was stuck. Kwik's sender would pick the
 * request up only at its next wake-up (up to 5 s on a silent connection), so when a connection with streams being
 * answered sent nothing since the last check, the watchdog also queues a PING with a flush, which wakes it.
 */
final class SendRequestWatchdog implements AutoCloseable {
    private static final long PERIOD_MS = 250;

    private final Map<QuicStream, QuicConnection> streams = new ConcurrentHashMap<>();
    private final Map<QuicConnection, Long> bytesSent = new HashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kwik-send-watchdog");
        t.setDaemon(true);
        return t;
    });

    SendRequestWatchdog() {
        timer.scheduleWithFixedDelay(this::nudge, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Watches a stream of {@code connection} whose response is being written. */
    void watch(QuicConnection connection, QuicStream stream) {
        if (stream.getOutputStream() instanceof FlowControlUpdateListener) {
            streams.put(stream, connection);
        }
    }

    /** The response on this stream is complete (or abandoned). */
    void unwatch(QuicStream stream) {
        streams.remove(stream);
    }

    private void nudge() {
        Set<QuicConnection> active = new HashSet<>();
        for (Map.Entry<QuicStream, QuicConnection> e : streams.entrySet()) {
            QuicStream s = e.getKey();
            try {
                ((FlowControlUpdateListener) s.getOutputStream()).streamNotBlocked(s.getStreamId());
                active.add(e.getValue());
            } catch (RuntimeException closedMeanwhile) {
                streams.remove(s);
            }
        }
        bytesSent.keySet().retainAll(active);
        for (QuicConnection c : active) {
            try {
                long sent = c.getStats().bytesSent();
                Long before = bytesSent.put(c, sent);
                if (before != null && before == sent && c instanceof QuicConnectionImpl impl) {
                    impl.send(new PingFrame(), lost -> { }, true);
                }
            } catch (RuntimeException closedMeanwhile) {
                bytesSent.remove(c);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        streams.clear();
    }
}
