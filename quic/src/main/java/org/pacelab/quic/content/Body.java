package org.pacelab.quic.content;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A response body of known length, produced chunk by chunk into buffers the caller owns, so any size
 * streams through bounded memory without allocating per chunk.
 */
public interface Body extends AutoCloseable {
    /** The body's length in bytes. */
    long length();

    /**
     * Copies the next bytes of the body into {@code dst} (at most {@code dst.remaining()}), advancing its
     * position.
     *
     * @return the number of bytes copied; 0 only when {@code dst} has no room or the body is complete
     * @throws IOException when the bytes cannot be produced (e.g. a file shrank or could not be read)
     */
    int read(ByteBuffer dst) throws IOException;

    /** Releases what the body holds (an open file). Idempotent. */
    @Override
    void close();
}
