package org.pacelab.sim.output;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.pacelab.quic.frame.Frame;
import org.pacelab.quic.packet.PacketType;
import org.pacelab.quic.qlog.QlogSink;

/**
 * The simulation's qlog records written on a thread of their own ({@code qlog-writer}) instead of the run's: the
 * run's thread only records each event's arguments (one small object per event, handed over in batches of
 * {@value #BATCH}) and this thread makes the calls on the real sinks in the same order, so the files hold the same
 * bytes. Encoding the records was ~7 % of a short simulation's main thread under C1 (docs/benchmarks.md, "Simulator",
 * issue 14, 2026-12-04 second sitting); with the second CPU free the run no longer waits for it.
 *
 * <p>The arguments are the connection's own (a packet's frame list, the parameters' map, immutable frame records):
 * the core does not change them after the call, so the writer reads what the call passed. A sink's failure (a
 * {@link UncheckedIOException} of its file) ends the writing; the run's thread throws it at its next hand-over, at
 * {@link #finish()} at the latest. Not for concurrent use by several run threads: one simulation's thread calls it.
 */
final class QlogWriterThread {
    /** Events per hand-over: one queue operation per batch, not per event. */
    static final int BATCH = 512;
    /** Batches in flight: the run waits when the writer is this far behind. */
    static final int QUEUE = 64;

    private static final Runnable END = () -> {};

    private final BlockingQueue<Runnable[]> queue = new ArrayBlockingQueue<>(QUEUE);
    private final Thread thread;
    private Runnable[] batch = new Runnable[BATCH];
    private int size;
    private volatile Throwable failure;
    private volatile boolean aborted;
    private boolean finished;

    QlogWriterThread() {
        thread = new Thread(this::write, "qlog-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /** A sink whose calls go to {@code sink} on this thread, in call order. */
    QlogSink defer(QlogSink sink) {
        return new Deferred(sink);
    }

    private void write() {
        try {
            while (!aborted) {
                Runnable[] b = queue.take();
                for (Runnable r : b) {
                    if (r == null) {
                        break;
                    }
                    if (r == END) {
                        return;
                    }
                    if (failure == null && !aborted) {
                        try {
                            r.run();
                        } catch (Throwable t) {
                            failure = t;
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            // aborted: the run failed and its files are discarded
        }
    }

    private void add(Runnable r) {
        if (finished) {
            throw new IllegalStateException("qlog event after the qlog files were closed");
        }
        batch[size++] = r;
        if (size == BATCH) {
            handOver();
        }
    }

    private void handOver() {
        rethrow();
        try {
            queue.put(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing qlog records to their writer", e);
        }
        batch = new Runnable[BATCH];
        size = 0;
    }

    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    /**
     * Hands over what is left, waits until every record was written, and throws the writer's failure if there was one.
     * The sinks' own {@code close()} calls were recorded like their events.
     */
    void finish() {
        if (finished) {
            rethrow();
            return;
        }
        add(END);
        if (size > 0) {
            handOver();
        }
        finished = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the qlog writer", e);
        }
        rethrow();
    }

    /** Ends the writer without writing what is still queued (the run failed; its files are discarded). */
    void abort() {
        aborted = true;
        finished = true;
        queue.clear();
        queue.offer(new Runnable[] {END});
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the writer's thread still runs. */
    boolean alive() {
        return thread.isAlive();
    }

    /** The calls of one sink, recorded. */
    private final class Deferred implements QlogSink {
        private final QlogSink sink;

        Deferred(QlogSink sink) {
            this.sink = sink;
        }

        @Override
        public boolean enabled() {
            return sink.enabled();
        }

        @Override
        public void connectionStarted(long now, String localAddress, String remoteAddress, byte[] scid, byte[] dcid) {
            add(() -> sink.connectionStarted(now, localAddress, remoteAddress, scid, dcid));
        }

        @Override
        public void parametersSet(long now, boolean local, Map<String, Object> parameters) {
            add(() -> sink.parametersSet(now, local, parameters));
        }

        @Override
        public void packetSent(long now, PacketType type, long packetNumber, int length, long intendedSendTime,
                               List<Frame> frames) {
            add(() -> sink.packetSent(now, type, packetNumber, length, intendedSendTime, frames));
        }

        @Override
        public void packetReceived(long now, PacketType type, long packetNumber, int length, List<Frame> frames) {
            add(() -> sink.packetReceived(now, type, packetNumber, length, frames));
        }

        @Override
        public void packetDropped(long now, PacketType type, int length, String trigger) {
            add(() -> sink.packetDropped(now, type, length, trigger));
        }

        @Override
        public void packetLost(long now, PacketType type, long packetNumber, String trigger) {
            add(() -> sink.packetLost(now, type, packetNumber, trigger));
        }

        @Override
        public void metricsUpdated(long now, long minRtt, long smoothedRtt, long latestRtt, long rttVariance,
                                   long congestionWindow, long bytesInFlight, long ssthresh, long pacingRateBitsPerSecond) {
            add(() -> sink.metricsUpdated(now, minRtt, smoothedRtt, latestRtt, rttVariance, congestionWindow,
                    bytesInFlight, ssthresh, pacingRateBitsPerSecond));
        }

        @Override
        public void congestionStateUpdated(long now, String oldState, String newState) {
            add(() -> sink.congestionStateUpdated(now, oldState, newState));
        }

        @Override
        public void keyUpdated(long now, String keyType, long generation, String trigger) {
            add(() -> sink.keyUpdated(now, keyType, generation, trigger));
        }

        @Override
        public void migrationStateUpdated(long now, String state, String path, String reason) {
            add(() -> sink.migrationStateUpdated(now, state, path, reason));
        }

        @Override
        public void connectionClosed(long now, boolean local, long errorCode, boolean application, String reason) {
            add(() -> sink.connectionClosed(now, local, errorCode, application, reason));
        }

        @Override
        public void close() {
            if (!finished) { // closing again after the files were closed changes nothing, as the writer's close
                add(sink::close);
            }
        }
    }
}
