package org.pacelab.quic.app;

/**
 * Callbacks from a connection to its application protocol. All calls happen on the connection's thread,
 * from inside the connection's {@code receive}, {@code send} or timeout processing; implementations may
 * call back into the {@link StreamTransport} from them.
 */
public interface ApplicationHandler {

    /** The handshake completed; the transport is ready for application data. */
    void onConnected(StreamTransport transport);

    /** The peer opened a stream (called before the first {@link #onStreamReadable}). */
    default void onPeerStreamOpened(long streamId) {}

    /** In-order data or the FIN became available on a stream. */
    void onStreamReadable(long streamId);

    /** A stream's send buffer has room again after a short {@link StreamTransport#write}. */
    default void onStreamWritable(long streamId) {}

    /** All bytes sent on a stream, including its FIN, have been acknowledged by the peer. */
    default void onStreamComplete(long streamId) {}

    /** The peer reset a stream it was sending on (RESET_STREAM). */
    default void onStreamReset(long streamId, long applicationErrorCode) {}

    /** The peer asked us to stop sending on a stream (STOP_SENDING). */
    default void onStopSending(long streamId, long applicationErrorCode) {}

    /** The peer raised its stream limit: {@link StreamTransport#openStream} may succeed again. */
    default void onStreamsAvailable() {}

    /**
     * The connection ended.
     *
     * @param errorCode   0 for a clean close
     * @param application whether the code is an application error code (else a transport error code)
     * @param reason      the reason phrase, possibly empty
     */
    default void onClosed(long errorCode, boolean application, String reason) {}
}
