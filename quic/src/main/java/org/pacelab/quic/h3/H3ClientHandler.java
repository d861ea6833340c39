package org.pacelab.quic.h3;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.pacelab.quic.content.Download;
import org.pacelab.quic.content.DownloadBatch;
import org.pacelab.quic.content.DownloadListener;
import org.pacelab.quic.content.DownloadRequest;
import org.pacelab.quic.content.DownloadSink;
import org.pacelab.quic.h3.qpack.FieldSectionEncoder;
import org.pacelab.quic.h3.qpack.HeaderField;
import org.pacelab.quic.stream.StreamId;

/**
 * The HTTP/3 client of one connection (ALPN {@code h3}): GETs every requested URL, as many at once as the
 * server's stream limit allows, stores 2xx bodies through the {@link DownloadSink}, reports each result
 * with its timing to the {@link DownloadListener}, and closes the connection with H3_NO_ERROR when all
 * are done.
 */
public final class H3ClientHandler extends H3Endpoint {
    private static final String USER_AGENT = "pacelab";

    private final DownloadBatch batch;
    private final Map<Long, ClientExchange> exchanges = new HashMap<>();
    private long goawayId = -1;

    /**
     * @param requests what to download, in order of starting
     * @param sink     where 2xx bodies go
     * @param listener told about each finished download and, once, about all of them
     * @param nanoTime the runtime's clock, read for the request-sent, first-byte and last-byte times
     */
    public H3ClientHandler(List<DownloadRequest> requests, DownloadSink sink, DownloadListener listener,
            LongSupplier nanoTime) {
        this.batch = new DownloadBatch(requests, sink, listener, nanoTime);
    }

    @Override
    void connected() {
        batch.finishIfEmpty();
        startWaiting();
        closeIfAllFinished();
    }

    @Override
    void peerBidiStreamOpened(long streamId) throws H3Exception {
        throw new H3Exception(H3Error.H3_STREAM_CREATION_ERROR, "the server opened bidirectional stream "
                + streamId + "; servers must not (RFC 9114 §6.1)");
    }

    @Override
    void bidiStreamReadable(long streamId) throws H3Exception {
        if (!StreamId.isClientInitiated(streamId)) {
            peerBidiStreamOpened(streamId);
        }
        ClientExchange e = exchanges.get(streamId);
        if (e == null) {
            drain(streamId);
            return;
        }
        e.readable(readBuffer);
        retireIfEnded(streamId, e);
    }

    @Override
    void bidiStreamWritable(long streamId) {
    }

    @Override
    void smallWriteCompleted(long streamId) {
        ClientExchange e = exchanges.get(streamId);
        if (e != null) {
            e.download().requestSent();
        }
    }

    @Override
    void bidiStreamComplete(long streamId) {
    }

    @Override
    void bidiStreamReset(long streamId, long errorCode) {
        ClientExchange e = exchanges.get(streamId);
        if (e != null) {
            e.peerReset(errorCode);
            retireIfEnded(streamId, e);
        }
    }

    @Override
    void bidiStopSending(long streamId, long errorCode) {
        // The request (HEADERS and FIN) is tiny; if part of it is still queued, end it as RFC 9000 §3.5 asks.
        if (pendingWrites.has(streamId)) {
            pendingWrites.forget(streamId);
            transport.resetStream(streamId, errorCode);
        }
    }

    @Override
    void streamsAvailable() {
        startWaiting();
    }

    @Override
    void goawayReceived(long id) throws H3Exception {
        if (!isRequestStream(id)) {
            throw new H3Exception(H3Error.H3_ID_ERROR, "the server's GOAWAY names stream " + id
                    + ", which is not a client-initiated bidirectional stream (RFC 9114 §5.2)");
        }
        goawayId = id;
        batch.failWaiting("not sent: the server is shutting down (GOAWAY)");
        for (ClientExchange e : new ArrayList<>(exchanges.values())) {
            if (e.download().streamId() >= id) {
                e.download().fail("the server will not process it (GOAWAY names stream " + id
                        + "); it may be retried");
                exchanges.remove(e.download().streamId());
            }
        }
        closeIfAllFinished();
    }

    @Override
    void connectionEnded(String why) {
        for (ClientExchange e : exchanges.values()) {
            e.download().fail("the connection ended: " + why);
        }
        exchanges.clear();
        batch.failWaiting("not sent: the connection ended: " + why);
    }

    /** A client-initiated bidirectional stream, the only kind that carries requests (RFC 9114 §6.1). */
    private static boolean isRequestStream(long id) {
        return StreamId.isClientInitiated(id) && StreamId.isBidirectional(id);
    }

    private void startWaiting() {
        while (batch.hasWaiting() && goawayId < 0 && !closed()) {
            long streamId = transport.openStream(true);
            if (streamId < 0) {
                return; // onStreamsAvailable tells when the server allows more
            }
            Download download = batch.start(streamId);
            ClientExchange e = new ClientExchange(streamId, transport, download);
            exchanges.put(streamId, e);
            DownloadRequest r = download.request();
            byte[] section = FieldSectionEncoder.encode(List.of(
                    new HeaderField(":method", "GET"),
                    new HeaderField(":scheme", "https"),
                    new HeaderField(":authority", r.authority()),
                    new HeaderField(":path", r.target()),
                    new HeaderField("user-agent", USER_AGENT)));
            if (pendingWrites.write(transport, streamId, ClientExchange.request(section), true)) {
                download.requestSent();
            }
        }
    }

    private void retireIfEnded(long streamId, ClientExchange e) {
        if (e.download().ended()) {
            exchanges.remove(streamId);
            pendingWrites.forget(streamId);
            closeIfAllFinished();
        }
    }

    private void closeIfAllFinished() {
        if (batch.allFinished() && !closed()) {
            // Our GOAWAY carries a push ID; we allowed no pushes, so 0 (RFC 9114 §5.2).
            closeGracefully(0);
        }
    }
}
