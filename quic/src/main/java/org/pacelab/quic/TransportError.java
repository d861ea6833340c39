package org.pacelab.quic;

/** Transport error codes, RFC 9000 §20.1. */
public enum TransportError {
    NO_ERROR(0x00),
    INTERNAL_ERROR(0x01),
    CONNECTION_REFUSED(0x02),
    FLOW_CONTROL_ERROR(0x03),
    STREAM_LIMIT_ERROR(0x04),
    STREAM_STATE_ERROR(0x05),
    FINAL_SIZE_ERROR(0x06),
    FRAME_ENCODING_ERROR(0x07),
    TRANSPORT_PARAMETER_ERROR(0x08),
    CONNECTION_ID_LIMIT_ERROR(0x09),
    PROTOCOL_VIOLATION(0x0a),
    INVALID_TOKEN(0x0b),
    APPLICATION_ERROR(0x0c),
    CRYPTO_BUFFER_EXCEEDED(0x0d),
    KEY_UPDATE_ERROR(0x0e),
    AEAD_LIMIT_REACHED(0x0f),
    NO_VIABLE_PATH(0x10),
    /** RFC 9368 §10.2: version negotiation failed or was tampered with. */
    VERSION_NEGOTIATION_ERROR(0x11);

    /** CRYPTO_ERROR range base: 0x0100 + TLS alert (RFC 9000 §20.1, RFC 9001 §4.8). */
    public static final long CRYPTO_ERROR_BASE = 0x100;

    public final long code;

    TransportError(long code) {
        this.code = code;
    }

    /** The error code for a TLS alert, RFC 9001 §4.8. */
    public static long cryptoError(int tlsAlert) {
        return CRYPTO_ERROR_BASE + (tlsAlert & 0xff);
    }

    /** A readable name for any transport error code, including the CRYPTO_ERROR range. */
    public static String nameOf(long code) {
        for (TransportError e : values()) {
            if (e.code == code) {
                return e.name();
            }
        }
        if (code >= 0x100 && code <= 0x1ff) {
            return "CRYPTO_ERROR(alert " + (code - 0x100) + ")";
        }
        return "0x" + Long.toHexString(code);
    }
}
