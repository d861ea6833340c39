package org.pacelab.quic.h3.qpack;

/**
 * Malformed or unsupported QPACK input. Always a connection error of the carried type (RFC 9204 §2.2.3,
 * §4.2, §6); the message names the byte offset and what was expected.
 */
public final class QpackException extends Exception {
    private final QpackError error;

    public QpackException(QpackError error, String message) {
        super(message);
        this.error = error;
    }

    public QpackError error() {
        return error;
    }

    @Override
    public String toString() {
        return error.name() + ": " + getMessage();
    }
}
