package org.pacelab.quic.h3;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.pacelab.quic.content.ChunkPool;
import org.pacelab.quic.content.ContentSource;
import org.pacelab.quic.content.ServedRequest;

/**
 * The HTTP/3 server of one connection (ALPN {@code h3}): answers GET and HEAD requests from a
 * {@link ContentSource}, and shuts down gracefully with GOAWAY on {@link #shutdown()}.
 */
public final class H3ServerHandler extends H3Endpoint {
    /** Body bytes read from the content source at a time, per sending stream. */
    static final int CHUNK_SIZE = 64 * 1024;

    private final ContentSource content;
    private final Consumer<ServedRequest> log;
    private final ChunkPool pool = new ChunkPool(CHUNK_SIZE, 16);
    private final Map<Long, ServerExchange> exchanges = new HashMap<>();
    /** Request streams already answered or refused, by stream ID / 4 (RFC 9000 §2.1). */
    private final BitSet retired = new BitSet();
    private long nextRequestStream;
    private long goawayId = -1;

    /**
     * @param content where request targets are looked up
     * @param log     told about every request when its response has been handed over or abandoned
     */
    public H3ServerHandler(ContentSource content, Consumer<ServedRequest> log) {
        this.content = content;
        this.log = log;
    }

    public H3ServerHandler(ContentSource content) {
        this(content, r -> { });
    }

    /**
     * Starts a graceful shutdown (RFC 9114 §5.2): sends GOAWAY naming the first request stream not yet
     * accepted, refuses later requests with H3_REQUEST_REJECTED, and closes the connection with H3_NO_ERROR
     * once every accepted request has been answered and acknowledged. Call on the connection's thread.
     */
    public void shutdown() {
        if (closed() || transport == null || goawayId >= 0) {
            return;
        }
        goawayId = nextRequestStream;
        sendGoaway(goawayId);
        closeIfDrained();
    }

    @Override
    void connected() {
    }

    @Override
    void peerBidiStreamOpened(long streamId) {
        exchange(streamId);
    }

    @Override
    void bidiStreamReadable(long streamId) throws H3Exception {
        ServerExchange e = exchange(streamId);
        if (e == null) {
            drain(streamId);
            return;
        }
        e.readable(readBuffer);
        retireIfDone(streamId, e);
    }

    @Override
    void bidiStreamWritable(long streamId) {
        onExchange(streamId, ServerExchange::writable);
    }

    @Override
    void smallWriteCompleted(long streamId) {
    }

    @Override
    void bidiStreamComplete(long streamId) {
        onExchange(streamId, ServerExchange::acked);
    }

    @Override
    void bidiStreamReset(long streamId, long errorCode) {
        onExchange(streamId, e -> e.peerReset(errorCode));
    }

    @Override
    void bidiStopSending(long streamId, long errorCode) {
        onExchange(streamId, e -> e.stopSending(errorCode));
    }

    @Override
    void streamsAvailable() {
    }

    @Override
    void goawayReceived(long id) {
        // A client's GOAWAY carries a push ID (RFC 9114 §5.2); this server never pushes.
    }

    @Override
    void connectionEnded(String why) {
        for (ServerExchange e : new ArrayList<>(exchanges.values())) {
            e.connectionEnded(why);
        }
        exchanges.clear();
    }

    /**
     * The exchange of a request stream, created when the stream is new; null for a stream already retired
     * or refused after GOAWAY.
     */
    private ServerExchange exchange(long streamId) {
        ServerExchange e = exchanges.get(streamId);
        if (e != null || retired.get(slot(streamId))) {
            return e;
        }
        nextRequestStream = Math.max(nextRequestStream, streamId + 4);
        if (goawayId >= 0 && streamId >= goawayId) {
            retired.set(slot(streamId));
            abortStream(streamId, H3Error.H3_REQUEST_REJECTED);
            return null;
        }
        e = new ServerExchange(streamId, transport, content, pool, log);
        exchanges.put(streamId, e);
        return e;
    }

    /** Hands a stream event to the stream's exchange, if it has one, then retires the exchange when it is done. */
    private void onExchange(long streamId, Consumer<ServerExchange> event) {
        ServerExchange e = exchanges.get(streamId);
        if (e != null) {
            event.accept(e);
            retireIfDone(streamId, e);
        }
    }

    private void retireIfDone(long streamId, ServerExchange e) {
        if (e.done()) {
            exchanges.remove(streamId);
            retired.set(slot(streamId));
            closeIfDrained();
        }
    }

    /** Client-initiated bidirectional stream IDs are multiples of 4; the stream limits keep them small. */
    private static int slot(long streamId) {
        return (int) Math.min(streamId >>> 2, Integer.MAX_VALUE - 1);
    }

    private void closeIfDrained() {
        if (goawayId >= 0 && exchanges.isEmpty() && !closed()) {
            closeGracefully(goawayId);
        }
    }
}
