package org.pacelab.quic.h3;

/**
 * A request or response that breaks the rules of RFC 9114 §4.1.2 and §4.2-§4.3 (a stream error of type
 * H3_MESSAGE_ERROR), or a request this server will not process. For requests, {@link #status()} is the
 * HTTP status to answer with: 400 for malformed requests, 405 for methods other than GET and HEAD.
 */
final class MalformedMessageException extends Exception {
    private final int status;

    MalformedMessageException(int status, String reason) {
        super(reason);
        this.status = status;
    }

    int status() {
        return status;
    }
}
