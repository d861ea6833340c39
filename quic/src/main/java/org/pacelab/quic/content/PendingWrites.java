package org.pacelab.quic.content;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.pacelab.quic.app.StreamTransport;

/**
 * Small writes (frames on the control stream, request headers) that the transport did not take at once:
 * kept per stream and retried when the stream becomes writable.
 */
public final class PendingWrites {
    /** Outcome of {@link #flush}. */
    public enum Flush { NOTHING_PENDING, STILL_PENDING, COMPLETED }

    private static final class Pending {
        ByteBuffer data;
        boolean fin;
    }

    private final Map<Long, Pending> pending = new HashMap<>();

    /**
     * Writes as much as the transport takes now and keeps the rest (after anything already kept).
     *
     * @return whether everything, including the FIN when asked, has been handed to the transport
     */
    public boolean write(StreamTransport transport, long streamId, ByteBuffer data, boolean fin) {
        Pending p = pending.get(streamId);
        if (p != null) {
            ByteBuffer joined = ByteBuffer.allocate(p.data.remaining() + data.remaining());
            joined.put(p.data).put(data).flip();
            p.data = joined;
            p.fin |= fin;
            return false;
        }
        if (!data.hasRemaining() && fin) {
            transport.finish(streamId);
            return true;
        }
        transport.write(streamId, data, fin);
        if (!data.hasRemaining()) {
            return true;
        }
        p = new Pending();
        p.data = ByteBuffer.allocate(data.remaining()).put(data).flip();
        p.fin = fin;
        pending.put(streamId, p);
        return false;
    }

    /** Retries what is kept for {@code streamId}. */
    public Flush flush(StreamTransport transport, long streamId) {
        Pending p = pending.get(streamId);
        if (p == null) {
            return Flush.NOTHING_PENDING;
        }
        transport.write(streamId, p.data, p.fin);
        if (p.data.hasRemaining()) {
            return Flush.STILL_PENDING;
        }
        pending.remove(streamId);
        return Flush.COMPLETED;
    }

    /** Whether anything is kept for {@code streamId}. */
    public boolean has(long streamId) {
        return pending.containsKey(streamId);
    }

    public void forget(long streamId) {
        pending.remove(streamId);
    }
}
