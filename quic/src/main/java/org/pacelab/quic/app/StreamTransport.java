package org.pacelab.quic.app;

import java.nio.ByteBuffer;

/**
 * What an application protocol (HTTP/3, hq-interop) needs from a QUIC connection: streams, and closing
 * the connection with an application error code. Implemented by the connection; implemented in memory by
 * tests. Stream IDs follow RFC 9000 §2.1.
 */
public interface StreamTransport {

    /** Whether this endpoint is the client. */
    boolean isClient();

    /** The ALPN protocol negotiated in the handshake, e.g. {@code h3} or {@code hq-interop}. */
    String applicationProtocol();

    /**
     * Opens a locally initiated stream.
     *
     * @return its stream ID, or -1 when the peer's stream limit does not allow one now
     *         ({@link ApplicationHandler#onStreamsAvailable()} tells when it does)
     */
    long openStream(boolean bidirectional);

    /**
     * Queues bytes for sending on a stream. Takes as many bytes as the stream's send buffer accepts
     * (advancing {@code data}'s position) and returns how many were taken; when fewer than offered were
     * taken, {@link ApplicationHandler#onStreamWritable(long)} is called once more can be taken.
     *
     * @param fin whether these are the last bytes of the stream (only honoured if all bytes were taken)
     */
    int write(long streamId, ByteBuffer data, boolean fin);

    /** Ends the send side of a stream without more data (a FIN). */
    void finish(long streamId);

    /**
     * Reads received, in-order bytes into {@code dst}.
     *
     * @return the number of bytes read, 0 when none are available now, or -1 once the peer's FIN has
     *         been reached and all bytes were read
     */
    int read(long streamId, ByteBuffer dst);

    /** Abruptly ends the send side of a stream (RESET_STREAM, RFC 9000 §19.4). */
    void resetStream(long streamId, long applicationErrorCode);

    /** Asks the peer to stop sending on a stream (STOP_SENDING, RFC 9000 §19.5). */
    void stopSending(long streamId, long applicationErrorCode);

    /** Closes the connection with an application error (CONNECTION_CLOSE type 0x1d, RFC 9000 §19.19). */
    void close(long applicationErrorCode, String reason);
}
