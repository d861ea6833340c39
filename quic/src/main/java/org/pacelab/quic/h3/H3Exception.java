package org.pacelab.quic.h3;

import org.pacelab.quic.h3.qpack.QpackException;

/**
 * An HTTP/3 connection error (RFC 9114 §8): the connection is closed with this application error code and
 * the message as reason phrase.
 */
public final class H3Exception extends Exception {
    private final long code;

    public H3Exception(H3Error error, String message) {
        super(message);
        this.code = error.code;
    }

    /** A QPACK error is a connection error of the same code (RFC 9204 §6). */
    public H3Exception(QpackException e) {
        super(e.getMessage(), e);
        this.code = e.error().code;
    }

    public long code() {
        return code;
    }

    @Override
    public String toString() {
        return H3Error.nameOf(code) + ": " + getMessage();
    }
}
