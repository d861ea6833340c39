package org.pacelab.quic.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.pacelab.quic.app.StreamTransport;

/**
 * Streams a prefix (e.g. HTTP/3 HEADERS and DATA frame headers) and a {@link Body} onto a stream, then the
 * FIN. The body is read straight into a pooled chunk that the transport copies from, so each body byte is
 * copied once into the transport and nothing is allocated per chunk. When the transport takes less than
 * offered, the rest waits in the chunk until {@link #resume()} (on the stream becoming writable).
 */
public final class BodySender {
    private final StreamTransport transport;
    private final long streamId;
    private final ChunkPool pool;
    private Body body;
    private long bodyRemaining;
    private ByteBuffer chunk;
    private boolean finished;

    /**
     * @param prefix bytes sent before the body (may be empty); must fit a chunk or is sent from its own buffer
     * @param body   the body, or null for none; closed by this sender when done or aborted
     */
    public BodySender(StreamTransport transport, long streamId, ChunkPool pool, ByteBuffer prefix, Body body) {
        this.transport = transport;
        this.streamId = streamId;
        this.pool = pool;
        this.body = body;
        this.bodyRemaining = body == null ? 0 : body.length();
        this.chunk = pool.acquire();
        if (prefix.remaining() > chunk.capacity()) {
            pool.release(chunk);
            chunk = ByteBuffer.allocate(prefix.remaining());
        }
        chunk.put(prefix);
    }

    /**
     * Sends as much as the transport takes now.
     *
     * @return whether everything, FIN included, has been handed to the transport
     * @throws IOException when the body cannot be read; the caller resets the stream and {@link #abort()}s
     */
    public boolean start() throws IOException {
        fill();
        return pump();
    }

    /** Continues after the stream became writable; same contract as {@link #start()}. */
    public boolean resume() throws IOException {
        return finished || chunk == null || pump();
    }

    public boolean finished() {
        return finished;
    }

    /** Stops sending and releases the body and chunk (the caller resets the stream). */
    public void abort() {
        release();
    }

    private boolean pump() throws IOException {
        while (true) {
            if (!chunk.hasRemaining()) {
                chunk.clear();
                fill();
            }
            boolean last = bodyRemaining == 0;
            if (last && !chunk.hasRemaining()) {
                transport.finish(streamId);
            } else {
                transport.write(streamId, chunk, last);
            }
            if (chunk.hasRemaining()) {
                return false;
            }
            if (last) {
                finished = true;
                release();
                return true;
            }
        }
    }

    /** Fills the chunk's free space with body bytes and flips it for reading. */
    private void fill() throws IOException {
        int room = (int) Math.min(chunk.remaining(), bodyRemaining);
        int end = chunk.position() + room;
        int limit = chunk.limit();
        chunk.limit(end);
        while (chunk.position() < end) {
            if (body.read(chunk) <= 0) {
                long produced = body.length() - bodyRemaining + room - (end - chunk.position());
                chunk.limit(limit);
                throw new IOException("the body ended after " + produced + " of its declared " + body.length()
                        + " bytes");
            }
        }
        bodyRemaining -= room;
        chunk.flip();
    }

    private void release() {
        if (body != null) {
            body.close();
            body = null;
        }
        if (chunk != null) {
            pool.release(chunk);
            chunk = null;
        }
    }
}
