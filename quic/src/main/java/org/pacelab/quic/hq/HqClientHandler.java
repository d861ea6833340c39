package org.pacelab.quic.hq;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.pacelab.quic.app.ApplicationHandler;
import org.pacelab.quic.app.ConnectionEnd;
import org.pacelab.quic.app.StreamTransport;
import org.pacelab.quic.content.Download;
import org.pacelab.quic.content.DownloadBatch;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.content.PendingWrites;

/**
 * The hq-interop client of one connection (HTTP/0.9 over QUIC, ALPN {@code hq-interop}): sends
 * {@code GET /path} and FIN on one bidirectional stream per URL, as many at once as the server's stream
 * limit allows; the body is everything up to the server's FIN, a reset fails the download. Closes the
 * connection (code 0) when every download has ended.
 */
public final class HqClientHandler implements ApplicationHandler {
    private final DownloadBatch batch;
    private final Map<Long, Download> downloads = new HashMap<>();
    private final PendingWrites pendingWrites = new PendingWrites();
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private StreamTransport transport;
    private boolean closed;

    /**
     * @param requests what to download, in order of starting
     * @param sink     where bodies go
     * @param listener told about each finished download and, once, about all of them
     * @param nanoTime the runtime's clock, read for the request-sent, first-byte and last-byte times
     */
    public HqClientHandler(List<DownloadRequest> requests, DownloadSink sink, DownloadListener listener,
            LongSupplier nanoTime) {
        this.batch = new DownloadBatch(requests, sink, listener, nanoTime);
    }

    @Override
    public void onConnected(StreamTransport transport) {
        this.transport = transport;
        batch.finishIfEmpty();
        startWaiting();
        closeIfAllFinished();
    }

    @Override
    public void onStreamReadable(long streamId) {
        if (closed) {
            return;
        }
        Download d = downloads.get(streamId);
        while (true) {
            readBuffer.clear();
            int n = transport.read(streamId, readBuffer);
            if (n == 0) {
                return;
            }
            if (d == null || d.ended()) {
                if (n < 0) {
                    return;
                }
                continue; // a stream we no longer process (or one the server opened): drop its data
            }
            if (n < 0) {
                d.responseArrived();
                d.succeed();
                retire(streamId);
                return;
            }
            d.responseArrived();
            readBuffer.flip();
            try {
                d.body(readBuffer);
            } catch (IOException e) {
                transport.stopSending(streamId, HqError.INTERNAL_ERROR.code);
                d.fail("could not store the body: " + e.getMessage());
                retire(streamId);
            }
        }
    }

    @Override
    public void onStreamWritable(long streamId) {
        if (!closed && pendingWrites.flush(transport, streamId) == PendingWrites.Flush.COMPLETED) {
            Download d = downloads.get(streamId);
            if (d != null) {
                d.requestSent();
            }
        }
    }

    @Override
    public void onStreamReset(long streamId, long applicationErrorCode) {
        Download d = downloads.get(streamId);
        if (d != null && !closed) {
            d.fail("the server reset the stream with " + HqError.nameOf(applicationErrorCode));
            retire(streamId);
        }
    }

    @Override
    public void onStopSending(long streamId, long applicationErrorCode) {
        if (!closed && pendingWrites.has(streamId)) {
            pendingWrites.forget(streamId);
            transport.resetStream(streamId, applicationErrorCode);
        }
    }

    @Override
    public void onStreamsAvailable() {
        if (!closed) {
            startWaiting();
        }
    }

    @Override
    public void onClosed(long errorCode, boolean application, String reason) {
        if (closed) {
            return;
        }
        closed = true;
        String why = ConnectionEnd.describe(errorCode, application, reason,
                code -> "application error " + HqError.nameOf(code));
        for (Download d : new ArrayList<>(downloads.values())) {
            d.fail("the connection ended: " + why);
        }
        downloads.clear();
        batch.failWaiting("not sent: the connection ended: " + why);
    }

    private void startWaiting() {
        while (batch.hasWaiting() && !closed) {
            long streamId = transport.openStream(true);
            if (streamId < 0) {
                return; // onStreamsAvailable tells when the server allows more
            }
            Download d = batch.start(streamId);
            downloads.put(streamId, d);
            ByteBuffer request = ByteBuffer.wrap(("GET " + d.request().target() + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            if (pendingWrites.write(transport, streamId, request, true)) {
                d.requestSent();
            }
        }
    }

    /** Forgets a download that ended; its stream's later data is dropped. */
    private void retire(long streamId) {
        pendingWrites.forget(streamId);
        Download d = downloads.get(streamId);
        if (d != null && d.ended()) {
            downloads.remove(streamId);
        }
        closeIfAllFinished();
    }

    private void closeIfAllFinished() {
        if (batch.allFinished() && !closed) {
            closed = true;
            transport.close(HqError.NO_ERROR.code, "");
        }
    }
}
