package org.pacelab.quic.content;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The downloads one client connection performs: which are still waiting for a stream, the
 * {@link Download} of each started one, and the results, reported to the {@link DownloadListener}.
 * Protocol-independent; shared by the HTTP/3 and hq-interop clients.
 */
public final class DownloadBatch {
    private final List<DownloadRequest> requests;
    private final DownloadSink sink;
    private final DownloadListener listener;
    private final LongSupplier nanoTime;
    private final ArrayDeque<Integer> waiting = new ArrayDeque<>();
    private final DownloadResult[] results;
    private int finished;
    private boolean emptyReported;

    /**
     * @param nanoTime the runtime's clock (e.g. {@code System::nanoTime}, or virtual time in the simulator);
     *                 the only source of the timestamps in {@link DownloadResult}
     */
    public DownloadBatch(List<DownloadRequest> requests, DownloadSink sink, DownloadListener listener,
            LongSupplier nanoTime) {
        this.requests = List.copyOf(requests);
        this.sink = Objects.requireNonNull(sink);
        this.listener = Objects.requireNonNull(listener);
        this.nanoTime = Objects.requireNonNull(nanoTime);
        this.results = new DownloadResult[this.requests.size()];
        for (int i = 0; i < this.requests.size(); i++) {
            waiting.add(i);
        }
    }

    /** Whether some request has not been started yet. */
    public boolean hasWaiting() {
        return !waiting.isEmpty();
    }

    /** Starts the next waiting request on a newly opened stream. */
    public Download start(long streamId) {
        int index = waiting.remove();
        return new Download(this, index, requests.get(index), streamId);
    }

    /** Fails every request not started yet, e.g. when the connection closes or the server sends GOAWAY. */
    public void failWaiting(String reason) {
        while (!waiting.isEmpty()) {
            int index = waiting.remove();
            finish(index, new DownloadResult(requests.get(index), -1, 0, 0, -1, -1, -1, reason));
        }
    }

    /** Whether every request has finished (and {@link DownloadListener#onAllFinished} was called). */
    public boolean allFinished() {
        return finished == results.length;
    }

    /** Reports an empty batch as finished; a non-empty one finishes by its downloads. */
    public void finishIfEmpty() {
        if (results.length == 0 && !emptyReported) {
            emptyReported = true;
            listener.onAllFinished(List.of());
        }
    }

    long now() {
        return nanoTime.getAsLong();
    }

    DownloadSink sink() {
        return sink;
    }

    void finish(int index, DownloadResult result) {
        if (results[index] != null) {
            return;
        }
        results[index] = result;
        finished++;
        listener.onDownloadFinished(result);
        if (finished == results.length) {
            listener.onAllFinished(new ArrayList<>(Arrays.asList(results)));
        }
    }
}
