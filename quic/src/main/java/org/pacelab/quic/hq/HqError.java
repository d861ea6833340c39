package org.pacelab.quic.hq;

/**
 * Application error codes this implementation uses on hq-interop (HTTP/0.9 over QUIC) streams and
 * connections. HTTP/0.9 defines none and the QUIC Interop Runner fixes none, so these are pacelab's own;
 * a peer only needs to tell 0 (clean) from the rest.
 */
public enum HqError {
    /** Clean connection close. */
    NO_ERROR(0x0),
    /** The request line was not {@code GET /path}. */
    BAD_REQUEST(0x1),
    /** No resource at the path (an HTTP server would answer 404). */
    NOT_FOUND(0x2),
    /** The resource exists but could not be read. */
    INTERNAL_ERROR(0x3);

    public final long code;

    HqError(long code) {
        this.code = code;
    }

    /** The code for a refusal with this HTTP status. */
    public static HqError forStatus(int status) {
        return switch (status) {
            case 400 -> BAD_REQUEST;
            case 404 -> NOT_FOUND;
            default -> INTERNAL_ERROR;
        };
    }

    static String nameOf(long code) {
        for (HqError e : values()) {
            if (e.code == code) {
                return e.name() + " (0x" + Long.toHexString(code) + ")";
            }
        }
        return "0x" + Long.toHexString(code);
    }
}
