package org.pacelab.quic;

/**
 * A protocol violation detected while processing input. The connection closes with this error code
 * (RFC 9000 §10.2), naming the frame type that caused it when known.
 */
public class QuicException extends Exception {
    private final long errorCode;
    private final long frameType;

    public QuicException(TransportError error, String reason) {
        this(error.code, 0, reason);
    }

    public QuicException(TransportError error, long frameType, String reason) {
        this(error.code, frameType, reason);
    }

    public QuicException(long errorCode, long frameType, String reason) {
        super(reason);
        this.errorCode = errorCode;
        this.frameType = frameType;
    }

    /** The transport error code (RFC 9000 §20.1), possibly in the CRYPTO_ERROR range. */
    public long errorCode() { return errorCode; }

    /** The type of the frame that triggered the error, or 0 when unknown (RFC 9000 §19.19). */
    public long frameType() { return frameType; }

    @Override
    public String toString() {
        return TransportError.nameOf(errorCode) + ": " + getMessage();
    }
}
