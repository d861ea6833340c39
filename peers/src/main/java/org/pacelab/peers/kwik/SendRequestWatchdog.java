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
 *
 * <p>A response is watched until Kwik has taken all of it from the stream's send buffer, not only until the handler's
 * write returned: a response that fits the buffer (up to 50 KiB) is written at once, and the race stalled such ones
 * too (interop 2026-12-03: retry Kwik → quiche, 2,417 of 10,240 bytes; resumption Kwik → pacelab, 2 of 4 packets of
 * 5 KB; then nothing but the client's probes until the timeout) after the first version of the watchdog had already let
 * go of them. Kwik has no public way to ask whether a stream's data went out; its {@code StreamOutputStreamImpl}'s
 * {@code sendBuffer} is read by reflection ({@code SendBuffer.isEmpty()}), and a finished stream is let go after
 * {@link #FINISHED_LIMIT_MS} whatever it says.
 */
final class SendRequestWatchdog implements AutoCloseable {
    private static final long PERIOD_MS = 250;
    /** How long a stream whose response was written in full is watched at most until its send buffer is empty. */
    static final long FINISHED_LIMIT_MS = 10_000;
    private static final java.lang.reflect.Field SEND_BUFFER = sendBufferField();

    /** Streams whose response was written in full (the handler returned), with the time they were, in nanoseconds. */
    private final Map<QuicStream, Long> finished = new ConcurrentHashMap<>();

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

    /**
     * The response on this stream was written in full (or abandoned): watched on until Kwik took all of it from the
     * stream's send buffer.
     */
    void unwatch(QuicStream stream) {
        if (streams.containsKey(stream)) {
            finished.put(stream, System.nanoTime());
        }
    }

    private static java.lang.reflect.Field sendBufferField() {
        try {
            java.lang.reflect.Field f = Class.forName("tech.kwik.core.stream.StreamOutputStreamImpl").getDeclaredField("sendBuffer");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another Kwik: finished streams are let go at once, as before
        }
    }

    /** Whether this Kwik's stream send buffers can be read (else finished streams are let go at once). */
    static boolean seesSendBuffers() {
        return SEND_BUFFER != null;
    }

    /** Whether all of a finished stream's response left its send buffer (true when that cannot be known). */
    static boolean sent(QuicStream stream) {
        if (SEND_BUFFER == null || !SEND_BUFFER.getDeclaringClass().isInstance(stream.getOutputStream())) {
            return true;
        }
        try {
            return ((tech.kwik.core.stream.SendBuffer) SEND_BUFFER.get(stream.getOutputStream())).isEmpty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true;
        }
    }

    private void nudge() {
        long now = System.nanoTime();
        for (Map.Entry<QuicStream, Long> f : finished.entrySet()) {
            if (now - f.getValue() > FINISHED_LIMIT_MS * 1_000_000 || sent(f.getKey())) {
                streams.remove(f.getKey());
                finished.remove(f.getKey());
            }
        }
        Set<QuicConnection> active = new HashSet<>();
        for (Map.Entry<QuicStream, QuicConnection> e : streams.entrySet()) {
            QuicStream s = e.getKey();
            try {
                ((FlowControlUpdateListener) s.getOutputStream()).streamNotBlocked(s.getStreamId());
                active.add(e.getValue());
            } catch (RuntimeException closedMeanwhile) {
                streams.remove(s);
                finished.remove(s);
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
        finished.clear();
    }
}
