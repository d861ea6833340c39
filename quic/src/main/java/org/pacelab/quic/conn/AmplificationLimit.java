package org.pacelab.quic.conn;

/**
 * The anti-amplification limit (RFC 9000 §8.1): until the client's address is validated (a token from our Retry, or a
 * Handshake packet from it), a server sends at most three times the bytes it received. Also counts the bytes sent.
 */
final class AmplificationLimit {
    private boolean validated;
    private long received;
    private long sent;

    /** {@code validated}: a client, or a server whose client came with a token from our Retry. */
    AmplificationLimit(boolean validated) {
        this.validated = validated;
    }

    void onReceived(int bytes) {
        received += bytes;
    }

    void onSent(int bytes) {
        sent += bytes;
    }

    void validate() {
        validated = true;
    }

    boolean validated() {
        return validated;
    }

    /** Bytes that may still be sent (Long.MAX_VALUE once validated; may be negative). */
    long allowance() {
        return validated ? Long.MAX_VALUE : 3 * received - sent;
    }

    /** Whether nothing more may be sent before more arrives (RFC 9002 §A.6: then no loss-detection timer). */
    boolean atLimit() {
        return !validated && 3 * received <= sent;
    }

    /** Every byte sent on the connection. */
    long sent() {
        return sent;
    }
}
