package org.pacelab.quic.content;

import java.nio.ByteBuffer;
import org.pacelab.quic.app.StreamTransport;

/**
 * The request half of one server request stream, for HTTP/3 and hq-interop alike: reads what the transport has until
 * the request ends (FIN, reset, or the server gave up on it), and once the {@link ServerResponse} is settled stops
 * reading a request that is no longer needed, with STOP_SENDING and the protocol's no-error code (RFC 9114 §4.1.1).
 */
public final class RequestReader {
    private final long streamId;
    private final StreamTransport transport;
    private final long noErrorCode;
    private boolean ended;

    public RequestReader(long streamId, StreamTransport transport, long noErrorCode) {
        this.streamId = streamId;
        this.transport = transport;
        this.noErrorCode = noErrorCode;
    }

    /** Whether nothing more of the request will be read. */
    public boolean ended() {
        return ended;
    }

    /** Nothing more of the request will be read (it was reset, or the server gave up on it). */
    public void end() {
        ended = true;
    }

    /**
     * Reads once into {@code buffer} (cleared first, flipped for reading when bytes came).
     *
     * @return the bytes read; 0 when none are there now; -1 when the request ended (FIN), which ends this reader
     */
    public int read(ByteBuffer buffer) {
        buffer.clear();
        int n = transport.read(streamId, buffer);
        if (n < 0) {
            ended = true;
        } else if (n > 0) {
            buffer.flip();
        }
        return n;
    }

    /** Whether the stream needs nothing more: the request side ended and the response is settled. */
    public boolean doneWith(ServerResponse response) {
        if (response.settled() && !ended) {
            transport.stopSending(streamId, noErrorCode);
            ended = true;
        }
        return ended && response.settled();
    }
}
