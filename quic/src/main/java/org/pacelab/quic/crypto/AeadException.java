package org.pacelab.quic.crypto;

/**
 * A packet failed AEAD authentication (RFC 9001 §5.3). The receiver drops the packet (RFC 9000 §12.2)
 * and counts it against the integrity limit (RFC 9001 §6.6).
 */
public final class AeadException extends Exception {
    public AeadException(String message) {
        super(message);
    }

    public AeadException(String message, Throwable cause) {
        super(message, cause);
    }
}
