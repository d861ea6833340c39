package org.pacelab.quic.h3;

import org.pacelab.quic.h3.qpack.QpackError;

/** HTTP/3 error codes, RFC 9114 §8.1. QPACK's codes (RFC 9204 §6) share the space; see {@link QpackError}. */
public enum H3Error {
    H3_NO_ERROR(0x100),
    H3_GENERAL_PROTOCOL_ERROR(0x101),
    H3_INTERNAL_ERROR(0x102),
    H3_STREAM_CREATION_ERROR(0x103),
    H3_CLOSED_CRITICAL_STREAM(0x104),
    H3_FRAME_UNEXPECTED(0x105),
    H3_FRAME_ERROR(0x106),
    H3_EXCESSIVE_LOAD(0x107),
    H3_ID_ERROR(0x108),
    H3_SETTINGS_ERROR(0x109),
    H3_MISSING_SETTINGS(0x10a),
    H3_REQUEST_REJECTED(0x10b),
    H3_REQUEST_CANCELLED(0x10c),
    H3_REQUEST_INCOMPLETE(0x10d),
    H3_MESSAGE_ERROR(0x10e),
    H3_CONNECT_ERROR(0x10f),
    H3_VERSION_FALLBACK(0x110);

    public final long code;

    H3Error(long code) {
        this.code = code;
    }

    /**
     * A readable name for any code an HTTP/3 peer may send: the RFC 9114 and RFC 9204 names, "reserved"
     * for the greasing codes 0x1f * N + 0x21 (§8.1), else the hex value.
     */
    public static String nameOf(long code) {
        for (H3Error e : values()) {
            if (e.code == code) {
                return e.name();
            }
        }
        QpackError q = QpackError.of(code);
        if (q != null) {
            return q.name();
        }
        if (code >= 0x21 && (code - 0x21) % 0x1f == 0) {
            return "reserved(0x" + Long.toHexString(code) + ")";
        }
        return "0x" + Long.toHexString(code);
    }
}
